// A real child process spoken to in newline-framed JSON over stdio: the built binary in the app's
// process tests, a store worker in ccr-store's. stdout is read as lines as they arrive; stderr is
// kept whole for failure messages. Nothing is mocked: this is the framing a host sees.
import { type ChildProcess, spawn } from "node:child_process";
import { LineReader } from "./jsonLines.js";

export interface LineProcessOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** `pipe` (default) to write to the child, `ignore` for a child that reads nothing. */
  stdin?: "pipe" | "ignore";
}

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running child with line-framed stdout. */
export interface LineProcess {
  child: ChildProcess;
  /** Whole stdout lines so far, without their "\n". */
  lines: string[];
  /** The non-empty whole stdout lines so far, each parsed as JSON. */
  values(): unknown[];
  /** All of stderr so far. */
  stderr(): string;
  /** Write to stdin (a write after the child has gone is dropped, not thrown). */
  write(data: string | Uint8Array): void;
  /** The next `count` unread lines parsed as JSON; fails after `timeoutMs` (default 120 s: a hang detector, not a speed check) or if the child exits first. */
  next(count?: number, timeoutMs?: number): Promise<unknown[]>;
  /** Resolves when the process has exited. */
  exit: Promise<ProcessEnd>;
  /** Resolves when the process has exited and its pipes are drained (every line is in `lines`). */
  closed: Promise<ProcessEnd>;
}

/** Start `command args` with piped stdout/stderr and read stdout as JSON lines. */
export function spawnLines(command: string, args: string[], options: LineProcessOptions = {}): LineProcess {
  const child = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: [options.stdin ?? "pipe", "pipe", "pipe"],
  });
  const reader = new LineReader();
  let err = "";
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    if (reader.push(chunk) > 0) wake();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  // A child that exits while we write would otherwise raise EPIPE as an uncaught error.
  child.stdin?.on("error", () => {});
  const exit = new Promise<ProcessEnd>((resolve) =>
    child.on("exit", (code, signal) => {
      wake();
      resolve({ code, signal });
    }),
  );
  let drained = false;
  const closed = new Promise<ProcessEnd>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      drained = true;
      wake();
      resolve({ code, signal });
    });
  });
  // Seen by whoever awaits `closed`; without this a failed spawn nobody awaits would be unhandled.
  closed.catch(() => {});
  let consumed = 0;
  return {
    child,
    lines: reader.lines,
    values: () => reader.values(),
    stderr: () => err,
    exit,
    closed,
    write: (data) => {
      child.stdin?.write(data);
    },
    async next(count = 1, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (reader.lines.length < consumed + count) {
        // After exit, wait for the pipes to drain: lines written just before exiting still count.
        if (Date.now() > deadline || drained) throw new Error(`expected ${count} line(s); stderr: ${err}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      const out = reader.lines.slice(consumed, consumed + count).map((l) => JSON.parse(l) as unknown);
      consumed += count;
      return out;
    },
  };
}
