// `compress` and `retrieve` for people and scripts. Contract: they run the very code the server's
// tools run (the same compress step, the same retrieve tool, the same store), so a handle printed
// here retrieves in the server and the other way round. compress prints the text on stdout and
// handle/ratio on stderr (or one JSON object with --json: text and figures); retrieve prints the
// original byte-exact, its notes on stderr (--json: text and note). Exit 0 on success, 1 on a
// tool error. The engine runs under the server's deadline (`--engine-timeout-ms`).
import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { compressInput, createCavemanTools, EnginePool, Session, ToolRegistry } from "@caveman/mcp-server";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { ConfigError } from "../errors.js";
import { stderrLogger } from "../logger.js";
import { globalFlags, startSenderAfterClose } from "../queued.js";
import { keptRecorder } from "../savings.js";
import { openStores } from "../stores.js";
import { type Io, writeOut } from "./io.js";

/** The input as text; bytes that are not UTF-8 are refused, never silently replaced with U+FFFD. */
function readInput(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === "-" ? 0 : file);
  } catch (err) {
    throw new ConfigError(
      `compress: cannot read ${file === "-" ? "stdin" : file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      { cause: err },
    );
  }
  if (!isUtf8(bytes)) {
    throw new ConfigError(
      `compress: ${file === "-" ? "stdin" : file} is not UTF-8 text; only text can be compressed and restored byte-exact`,
    );
  }
  return bytes.toString("utf8");
}

export async function runToolCommand(
  command: Extract<Command, { name: "compress" | "retrieve" }>,
  config: Config,
  io: Io,
): Promise<number> {
  const logger = stderrLogger(io.stderr);
  const stores = openStores(config, logger);
  // The server's engine set-up, deadline included: a slow input fails open here too.
  const engine = new EnginePool({
    timeoutMs: config.engineTimeoutMs,
    workerUrl: new URL("./engine-worker.js", import.meta.url),
    logger,
  });
  try {
    const session = new Session();
    if (command.name === "compress") {
      const report = await compressInput(
        {
          ccr: stores.originals,
          session,
          store: stores.store,
          engine,
          onKept: keptRecorder(config, "cli")("caveman-mcp compress"),
        },
        {
          input: readInput(command.file),
          ...(command.hint ? { hint: command.hint } : {}),
          ...(command.query ? { query: command.query } : {}),
        },
      );
      const { output, ...figures } = report;
      if (command.json) {
        await writeOut(io, `${JSON.stringify({ text: output, ...figures })}\n`);
        return 0;
      }
      await writeOut(io, output);
      io.stderr.write(
        report.recovery_handle
          ? `caveman-mcp: handle ${report.recovery_handle} ratio ${report.ratio}\n`
          : `caveman-mcp: passed through unchanged (${report.reason ?? "not smaller"})\n`,
      );
      if (report.recovery_handle && stores.store.backend === "memory")
        io.stderr.write("caveman-mcp: warning: the store is in memory; this handle dies with this process\n");
      return 0;
    }
    const tools = createCavemanTools({
      families: ["compress"],
      session,
      ccr: stores.originals,
      store: stores.store,
      engine,
      // stdout has no result limit: a full retrieve here is the whole original, never a page.
      retrievePageTokens: Number.POSITIVE_INFINITY,
    });
    const registry = new ToolRegistry({ tools, logger, maxResultBytes: config.maxResultBytes });
    const result = await registry.callTool(
      "caveman_retrieve",
      { recovery_handle: command.handle, ...(command.query ? { query: command.query } : {}) },
      { signal: new AbortController().signal },
    );
    const blocks = result.content.filter((b): b is { type: "text"; text: string } => b.type === "text");
    const text = blocks[0]?.text ?? "";
    if (result.isError) {
      io.stderr.write(`caveman-mcp: ${text}\n`);
      return 1;
    }
    const notes = blocks.slice(1).map((b) => b.text);
    if (command.json) {
      await writeOut(
        io,
        `${JSON.stringify({ text, ...(notes.length ? { note: notes.join("\n") } : {}) })}\n`,
      );
      return 0;
    }
    await writeOut(io, text);
    for (const note of notes) io.stderr.write(`${note}\n`);
    return 0;
  } finally {
    await engine.close();
    await stores.close();
    // What the team store could not take now waits in the outbox; make sure someone sends it.
    const argv = process.argv.slice(2);
    const op = argv[argv.indexOf(command.name) + 1];
    const operands = op !== undefined && (!op.startsWith("-") || op === "-") ? 1 : 0;
    startSenderAfterClose(config, globalFlags(argv, command.name, operands));
  }
}
