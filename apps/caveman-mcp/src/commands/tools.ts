// `compress` and `retrieve` for people and scripts. Contract: they run the very tools the server
// registers (same registry, same store), so a handle printed here retrieves in the server and the
// other way round. compress prints the text on stdout and handle/ratio on stderr (or one JSON
// object with --json); retrieve prints the original byte-exact. Exit 0 on success, 1 on a tool error.
import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { createCavemanTools, Session, ToolRegistry } from "@caveman/mcp-server";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { ConfigError } from "../errors.js";
import { stderrLogger } from "../logger.js";
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
  try {
    const tools = createCavemanTools({
      families: ["compress"],
      session: new Session(),
      ccr: stores.originals,
      store: stores.store,
    });
    const registry = new ToolRegistry({ tools, logger, maxResultBytes: config.maxResultBytes });
    const controller = new AbortController();
    const result =
      command.name === "compress"
        ? await registry.callTool(
            "caveman_compress",
            {
              input: readInput(command.file),
              ...(command.hint ? { hint: command.hint } : {}),
              ...(command.query ? { query: command.query } : {}),
            },
            { signal: controller.signal },
          )
        : await registry.callTool(
            "caveman_retrieve",
            { recovery_handle: command.handle, ...(command.query ? { query: command.query } : {}) },
            { signal: controller.signal },
          );
    const blocks = result.content.filter((b): b is { type: "text"; text: string } => b.type === "text");
    const text = blocks[0]?.text ?? "";
    if (result.isError) {
      io.stderr.write(`caveman-mcp: ${text}\n`);
      return 1;
    }
    if (command.json) {
      await writeOut(io, `${JSON.stringify({ text, ...(result.structuredContent ?? {}) })}\n`);
      return 0;
    }
    await writeOut(io, text);
    for (const note of blocks.slice(1)) io.stderr.write(`${note.text}\n`);
    if (command.name === "compress" && result.structuredContent) {
      const s = result.structuredContent as {
        recovery_handle: string | null;
        ratio: number;
        reason?: string;
      };
      io.stderr.write(
        s.recovery_handle
          ? `caveman-mcp: handle ${s.recovery_handle} ratio ${s.ratio}\n`
          : `caveman-mcp: passed through unchanged (${s.reason ?? "not smaller"})\n`,
      );
      if (s.recovery_handle && stores.store.backend === "memory")
        io.stderr.write("caveman-mcp: warning: the store is in memory; this handle dies with this process\n");
    }
    return 0;
  } finally {
    stores.close();
  }
}
