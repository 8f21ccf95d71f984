// Replay: the text a chip puts back. A content chip gives its raw text; a failure chip gives the
// value of one field of its arguments (by default the one holding the largest string, which is
// where a tool's content usually is), so the model gets the text it wrote, not a JSON dump of it.

import { ChipStoreError } from "./errors.js";
import type { Chip } from "./record.js";

export interface ReplayOptions {
  /** Field of a failure chip's args to replay; dotted paths (`edits.0.content`) reach nested values. */
  field?: string;
  /** Replay a failure chip's whole args as pretty JSON instead of one field. */
  wholeArgs?: boolean;
  /** Prefix a one-line comment header naming the chip, as the original Go tool did. Off by default. */
  header?: boolean;
}

function largestString(value: unknown, path: string, best: { path: string; text: string } | null) {
  let out = best;
  if (typeof value === "string") {
    if (!out || value.length > out.text.length) out = { path, text: value };
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out = largestString(v, path ? `${path}.${i}` : String(i), out);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) out = largestString(v, path ? `${path}.${k}` : k, out);
  }
  return out;
}

function pick(args: unknown, field: string): unknown {
  let cur: unknown = args;
  for (const part of field.split(".")) {
    if (typeof cur !== "object" || cur === null || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function replayText(chip: Chip, options: ReplayOptions = {}): string {
  const header = options.header ? `# chip://${chip.id} from ${chip.tool} at ${chip.created_at}\n` : "";
  if (chip.kind === "content") {
    if (chip.data) {
      throw new ChipStoreError(
        "chip_binary",
        `chip ${chip.id} holds ${chip.bytes} bytes that are not UTF-8 text; use replayBytes to get them exactly`,
      );
    }
    return header + (chip.content ?? "");
  }
  const args = chip.args;
  if (options.wholeArgs) return header + JSON.stringify(args, null, 2);
  if (typeof args === "string") return header + args;
  if (options.field !== undefined) {
    const v = pick(args, options.field);
    if (v === undefined) {
      const keys = typeof args === "object" && args !== null ? Object.keys(args).join(", ") : "none";
      throw new ChipStoreError(
        "chip_no_field",
        `chip ${chip.id} args have no field "${options.field}" (top-level fields: ${keys})`,
      );
    }
    return header + (typeof v === "string" ? v : JSON.stringify(v, null, 2));
  }
  const best = largestString(args, "", null);
  if (!best) return header + JSON.stringify(args, null, 2);
  return header + best.text;
}
