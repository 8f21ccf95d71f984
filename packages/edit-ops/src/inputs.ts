// Operation-specific input parsing: the replacement text, batch edits, read targets and size
// and option checks. Everything here throws typed errors and touches no file.

import { checkKeys, expectedHash, int, str } from "./args.js";
import { EditError } from "./errors.js";
import { checkRangeText, sameIgnoringFinalNewline } from "./plan.js";
import type { Target } from "./targets.js";
import type { Doc } from "./text.js";

export function positive(v: number | undefined, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || v < 1)
    throw new EditError("invalid_argument", `${name} must be a positive integer`);
  return v;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Content must fit and be text: NUL would turn the file binary, a lone surrogate cannot be UTF-8. */
export function contentSize(content: string, max: number): void {
  if (content.length > max || Buffer.byteLength(content) > max) {
    throw new EditError("too_large", `content is over the ${max}-byte limit; split the edit`);
  }
  if (content.includes("\0")) {
    throw new EditError("invalid_argument", "content contains NUL characters; only text can be written");
  }
  if (LONE_SURROGATE.test(content)) {
    throw new EditError(
      "invalid_argument",
      "content contains an unpaired UTF-16 surrogate, which has no UTF-8 form; fix the text",
    );
  }
}

export function noPosition(op: string): EditError {
  return new EditError(
    "invalid_range",
    `${op} needs a position: start_line/end_line, path:5-15, or path:ALL${op === "replace" ? ", or an exact `old` text" : ""}. ` +
      "Nothing was changed (a missing position never means the whole file)",
  );
}

export function replacement(rec: Record<string, unknown>): string {
  const content = str(rec, "content");
  const alt = str(rec, "new");
  if (content !== undefined && alt !== undefined) {
    throw new EditError("invalid_argument", "give the replacement as `content` or `new`, not both");
  }
  const v = content ?? alt;
  if (v === undefined)
    throw new EditError("invalid_argument", "`content` (or `new`) is required: the replacement text");
  return v;
}

/** The `old` check of `ALL`: the same as a range check over every line, actual text shown. */
export function checkAllText(doc: Doc, old: string, path: string): void {
  if (doc.lines.length > 0) checkRangeText(doc, 1, doc.lines.length, old, path);
  else if (!sameIgnoringFinalNewline("", old)) {
    throw new EditError(
      "conflict",
      `${path} is empty, so it does not hold the expected \`old\` text; nothing was changed`,
      { path, actual: "", total_lines: 0 },
    );
  }
}

export function checkTarget(value: unknown): Target {
  const rec = checkKeys(value, ["kind", "name", "line", "text"], "target");
  const kind = str(rec, "kind", true);
  if (kind === "marker") return { kind, text: str(rec, "text", true) };
  if (kind === "function" || kind === "tag") {
    const name = str(rec, "name");
    const line = int(rec, "line");
    return { kind, ...(name !== undefined ? { name } : {}), ...(line !== undefined ? { line } : {}) };
  }
  throw new EditError(
    "invalid_argument",
    `target.kind must be one of: function, tag, marker (got "${kind}")`,
  );
}

export interface ParsedEdit {
  start?: number;
  end?: number;
  after?: number;
  old?: string;
  content: string;
  /** The read's range_hash of the lines this edit touches. */
  rangeHash?: string;
}

export function parseBatchEdit(e: unknown, i: number): ParsedEdit {
  const what = `batch edit ${i + 1}`;
  const rec = checkKeys(
    e,
    ["start_line", "end_line", "after_line", "old", "content", "new", "range_hash"],
    what,
  );
  const start = int(rec, "start_line");
  const end = int(rec, "end_line");
  const after = int(rec, "after_line");
  const old = str(rec, "old");
  const content = replacement(rec);
  const rangeHash = expectedHash(rec, "range_hash");
  if (after !== undefined && (start !== undefined || end !== undefined || old !== undefined)) {
    throw new EditError(
      "invalid_argument",
      `${what}: after_line inserts; do not combine it with start_line, end_line or old`,
    );
  }
  if (end !== undefined && start === undefined)
    throw new EditError("invalid_range", `${what}: end_line without start_line`);
  if (after === undefined && start === undefined && old === undefined) {
    throw new EditError(
      "invalid_range",
      `${what} has no position: give start_line[/end_line], after_line, or old`,
    );
  }
  return {
    ...(start !== undefined ? { start, end: end ?? start } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(old !== undefined ? { old } : {}),
    content,
    ...(rangeHash !== undefined ? { rangeHash } : {}),
  };
}
