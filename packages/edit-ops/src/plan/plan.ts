// Turns positional edits into line regions against one snapshot of a file, checking every
// position against the real line count first. Nothing here touches the disk. A plan holds the
// snapshot it is made against; each edit is one object (its index names it in errors). The
// operations (operations.ts) are made of these edits.

import { type Doc, joinLines, splitContent } from "../doc/lines.js";
import type { Region } from "../doc/splice.js";
import { EditError } from "../errors.js";
import { type Anchor, checkAnchored, locate } from "./anchor.js";
import { findUnique, normalizeNewlines } from "./match.js";

export interface Origin {
  /** Absolute path as given (inside the roots). */
  path: string;
  /** 1-based inclusive lines in the file before the edit. */
  start_line: number;
  end_line: number;
}

/** What an edit removed or overwrote: its exact text, and where it was in the file before. */
export interface RemovedText {
  text: string;
  origin: Origin;
}

export interface Plan {
  /** The snapshot every position refers to, and its path for messages. */
  doc: Doc;
  path: string;
  regions: Region[];
  removed: RemovedText[];
  /** Inserted content used CRLF and the file does not (it was normalised). */
  contentCrlf: boolean;
  /** For an empty file only: whether the result should end with a newline. */
  emptyFinalNewline: boolean;
  /**
   * Whether the file changed since the caller read it, by its expected_hash: false = still the
   * file's hash, true = changed, null = not given. Range hashes use it (see anchor.ts).
   */
  moved: boolean | null;
}

export function emptyPlan(doc: Doc, path: string, moved: boolean | null): Plan {
  return { doc, path, regions: [], removed: [], contentCrlf: false, emptyFinalNewline: true, moved };
}

interface EditBase {
  content: string;
  /** The edit's index in the caller's list (0 for a single edit). */
  index: number;
  anchor?: Anchor | undefined;
}

export interface RangeEdit extends EditBase {
  start: number;
  end: number;
  /** What the range must hold (see checkRangeText). */
  old?: string | undefined;
}

export interface InsertEdit extends EditBase {
  after: number;
}

export interface TextEdit extends EditBase {
  old: string;
}

/** Lines start..end (1-based inclusive) must exist. */
function checkRange(doc: Doc, start: number, end: number, path: string): void {
  const n = doc.lines.length;
  const count = `${path} has ${n} line${n === 1 ? "" : "s"}`;
  if (start < 1 || end < 1) {
    throw new EditError(
      "invalid_range",
      `line ${Math.min(start, end)} does not exist: lines are 1-based (${count})`,
      { path, total_lines: n },
    );
  }
  if (start > end) {
    throw new EditError("invalid_range", `start line ${start} is after end line ${end}; give start <= end`, {
      path,
      total_lines: n,
    });
  }
  if (n === 0) {
    throw new EditError(
      "out_of_range",
      `${path} is empty (0 lines); use insert with after_line 0 to add text`,
      {
        path,
        total_lines: 0,
      },
    );
  }
  if (start > n || end > n) {
    throw new EditError(
      "out_of_range",
      `line ${start > n ? start : end} is past the end (${count}); the last line is ${n}`,
      { path, total_lines: n },
    );
  }
}

function checkInsert(doc: Doc, after: number, path: string): void {
  const n = doc.lines.length;
  if (after < 0) {
    throw new EditError("invalid_range", `cannot insert after line ${after}; use 0 for the top of the file`, {
      path,
      total_lines: n,
    });
  }
  if (after > n) {
    throw new EditError(
      "out_of_range",
      `cannot insert after line ${after}: ${path} has ${n} lines; use after_line ${n} to append`,
      { path, total_lines: n },
    );
  }
}

/** The optional `old` check of a range: equal ignoring line-ending style and the final newline. */
function checkRangeText(doc: Doc, start: number, end: number, old: string, path: string): void {
  const actual = doc.lines.slice(start - 1, end).join("\n");
  if (sameIgnoringFinalNewline(actual, old)) return;
  const shown =
    actual.length > 4000 ? `${actual.slice(0, 4000)}\n... (${actual.length - 4000} more characters)` : actual;
  throw new EditError(
    "conflict",
    `lines ${start}-${end} of ${path} do not hold the expected \`old\` text; nothing was changed. They hold:\n${shown}`,
    { path, actual, total_lines: doc.lines.length },
  );
}

/**
 * `old` equals the lines' text (joined with "\n") with or without one final newline. Stripping a
 * newline from `old` instead would refuse "a\nb\n" for the lines "a", "b" and an empty line.
 */
function sameIgnoringFinalNewline(actual: string, old: string): boolean {
  const want = normalizeNewlines(old);
  return want === actual || want === `${actual}\n`;
}

export function origin(path: string, start: number, end: number) {
  return { path, start_line: start, end_line: end };
}

function addContent(plan: Plan, content: string, emptyFile: boolean): string[] {
  const c = splitContent(content);
  if (c.hadCrlf) plan.contentCrlf = true;
  if (emptyFile) plan.emptyFinalNewline = c.endsWithNewline;
  return c.lines;
}

export function rangeEdit(plan: Plan, e: RangeEdit): void {
  const { doc, path } = plan;
  let { start, end } = e;
  if (e.anchor && start >= 1 && start <= end) ({ start, end } = locate(doc, start, end, e.anchor, path));
  checkRange(doc, start, end, path);
  if (e.old !== undefined) checkRangeText(doc, start, end, e.old, path);
  const lines = addContent(plan, e.content, false);
  plan.regions.push({ start: start - 1, end, lines, edit: e.index });
  plan.removed.push({
    text: joinLines(doc.lines, doc.eols, start - 1, end),
    origin: origin(path, start, end),
  });
}

export function insertEdit(plan: Plan, e: InsertEdit): void {
  const { doc, path } = plan;
  let after = e.after;
  if (e.anchor) {
    if (after < 1) {
      throw new EditError(
        "invalid_argument",
        "range_hash anchors the line an insert goes after; at after_line 0 there is none, use expected_hash",
        { path, total_lines: doc.lines.length },
      );
    }
    after = locate(doc, after, after, e.anchor, path).start;
  }
  checkInsert(doc, after, path);
  const lines = addContent(plan, e.content, doc.lines.length === 0);
  plan.regions.push({ start: after, end: after, lines, edit: e.index });
}

export function textEdit(plan: Plan, e: TextEdit): void {
  const { doc, path } = plan;
  const m = findUnique(doc, e.old, e.content, path, e.index);
  if (e.anchor) checkAnchored(doc, m.startLine, m.endLine, e.anchor, path);
  if (e.content.includes("\r\n")) plan.contentCrlf = true;
  plan.regions.push(m.region);
  plan.removed.push({ text: m.removed, origin: origin(path, m.startLine, m.endLine) });
}

/** The `old` check of `ALL`: the same as a range check over every line, actual text shown. */
function checkAllText(doc: Doc, old: string, path: string): void {
  if (doc.lines.length > 0) checkRangeText(doc, 1, doc.lines.length, old, path);
  else if (!sameIgnoringFinalNewline("", old)) {
    throw new EditError(
      "conflict",
      `${path} is empty, so it does not hold the expected \`old\` text; nothing was changed`,
      { path, actual: "", total_lines: 0 },
    );
  }
}

/**
 * Every line of the file (`path:ALL`) replaced by `content`, or deleted (`content` null); an
 * empty file gets the content inserted.
 */
export function wholeEdit(
  plan: Plan,
  content: string | null,
  old: string | undefined,
  anchor: Anchor | undefined,
): void {
  const n = plan.doc.lines.length;
  if (old !== undefined) checkAllText(plan.doc, old, plan.path);
  if (anchor) checkAnchored(plan.doc, 1, n, anchor, plan.path);
  if (n > 0) rangeEdit(plan, { start: 1, end: n, content: content ?? "", index: 0 });
  else if (content !== null) insertEdit(plan, { after: 0, content, index: 0 });
}
