// `caveman-mcp statusline`: the command Claude Code runs for its status line (settings.json
// `"statusLine": {"type": "command", "command": "caveman-mcp statusline"}`). Contract: reads the
// host's JSON from stdin (bounded: 64 KiB, 1 s), prints one line of savings for that session and
// today, exits 0 whatever happens — a status line must never show a stack trace. It reads only the
// savings journal: no engine, tokenizer or store is loaded.
import type { Readable } from "node:stream";
import { startOfLocalDay, summarize } from "@caveman/savings";
import type { Config } from "../config.js";
import { savingsJournal } from "../savings.js";
import { type Io, writeOut } from "./io.js";
import { statusLine } from "./savingsView.js";

const MAX_INPUT = 64 * 1024;

function readSmall(stdin: Readable, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const done = () => {
      clearTimeout(timer);
      stdin.off("data", onData);
      stdin.pause();
      resolve(text);
    };
    const onData = (c: Buffer) => {
      text += c.toString("utf8");
      if (text.length > MAX_INPUT) done();
    };
    const timer = setTimeout(done, ms);
    stdin.on("data", onData);
    stdin.once("end", done);
    stdin.once("error", done);
  });
}

/** Claude Code's `session_id`, when stdin carries one. */
function sessionOf(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as { session_id?: unknown };
    return typeof v.session_id === "string" && v.session_id !== "" ? v.session_id : undefined;
  } catch {
    return undefined;
  }
}

export async function runStatusLine(config: Config, io: Io, stdin: Readable): Promise<number> {
  let line = "caveman: no savings journal";
  try {
    const session = sessionOf((stdin as { isTTY?: boolean }).isTTY ? "" : await readSmall(stdin, 1000));
    const now = Date.now();
    const s = summarize(savingsJournal(config).read(), {
      dayStart: startOfLocalDay(now),
      ...(session ? { session } : {}),
    });
    line = statusLine(session ? s : { ...s, session: null });
  } catch {
    // Keep the plain line.
  }
  await writeOut(io, `${line}\n`);
  return 0;
}
