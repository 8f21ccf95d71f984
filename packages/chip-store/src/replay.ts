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

/**
 * The longest string anywhere in `value`, first in document order on ties. Iterative: args nested
 * a few thousand levels deep are valid JSON and must not overflow the call stack.
 */
function largestString(value: unknown): { path: string; text: string } | null {
  let best: { path: string; text: string } | null = null;
  const stack: { v: unknown; path: string }[] = [{ v: value, path: "" }];
  const join = (path: string, k: string) => (path ? `${path}.${k}` : k);
  while (stack.length > 0) {
    const { v, path } = stack.pop() as { v: unknown; path: string };
    if (typeof v === "string") {
      if (!best || v.length > best.text.length) best = { path, text: v };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: join(path, String(i)) });
    } else if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        stack.push({ v: child, path: join(path, k) });
      }
    }
  }
  return best;
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
  const best = largestString(args);
  if (!best) return header + JSON.stringify(args, null, 2);
  return header + best.text;
}
