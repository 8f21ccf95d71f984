// A data file that Read cut short, read whole from disk. Contract: only for data kinds (json,
// ndjson, log, table; code and prose stay as the host gave them), only under the session's roots
// (the configured roots and the event's cwd) through the confined reader, at most `maxInputBytes`,
// UTF-8, and only when the host's text is where the file starts (else it is not the same file).
// Null means "use the host's text"; never throws.
import { isUtf8 } from "node:buffer";
import { isAbsolute } from "node:path";
import { readConfined } from "./persisted.js";
import type { HookContext } from "./shrink.js";

const DATA_KINDS: ReadonlySet<string> = new Set(["json", "ndjson", "log", "table"]);

export function wholeDataFile(
  path: string,
  kind: string | undefined,
  hostText: string,
  ctx: HookContext,
  cwd: string | undefined,
): { text: string } | null {
  if (kind === undefined || !DATA_KINDS.has(kind)) return null;
  const roots = [...(ctx.readRoots ?? []), ...(cwd && isAbsolute(cwd) ? [cwd] : [])];
  const read = readConfined(path, roots, ctx.settings.maxInputBytes);
  if (!("bytes" in read) || !isUtf8(read.bytes)) return null;
  const text = read.bytes.toString("utf8");
  // Read cuts long lines, so the probe is the start of the first line only.
  const probe = hostText.slice(0, Math.min(200, hostText.indexOf("\n") >>> 0));
  if (probe === "" || !text.startsWith(probe)) return null;
  return { text };
}
