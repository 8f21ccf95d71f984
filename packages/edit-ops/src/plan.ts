// Turns positional edits into line regions against one snapshot of a file, checking every
// position against the real line count first. Nothing here touches the disk.

import { type Anchor, checkAnchored, locate } from "./anchor.js";
import { EditError } from "./errors.js";
import { findUnique, normalizeNewlines } from "./match.js";
import type { Region } from "./splice.js";
import { type Doc, joinLines, splitContent } from "./text.js";
import type { RemovedText } from "./types.js";

export interface Plan {
  regions: Region[];
  removed: RemovedText[];
  /** Inserted content used CRLF and the file does not (it was normalised). */
  contentCrlf: boolean;
  /** For an empty file only: whether the result should end with a newline. */
  emptyFinalNewline: boolean;
}

export function emptyPlan(): Plan {
  return { regions: [], removed: [], contentCrlf: false, emptyFinalNewline: true };
}

/** Lines start..end (1-based inclusive) must exist. */
export function checkRange(doc: Doc, start: number, end: number, path: string): void {
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

export function checkInsert(doc: Doc, after: number, path: string): void {
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
export function checkRangeText(doc: Doc, start: number, end: number, old: string, path: string): void {
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
export function sameIgnoringFinalNewline(actual: string, old: string): boolean {
  const want = normalizeNewlines(old);
  return want === actual || want === `${actual}\n`;
}

export function origin(path: string, start: number, end: number) {
  return { path, start_line: start, end_line: end };
}

export function addContent(plan: Plan, content: string, emptyFile: boolean): string[] {
  const c = splitContent(content);
  if (c.hadCrlf) plan.contentCrlf = true;
  if (emptyFile) plan.emptyFinalNewline = c.endsWithNewline;
  return c.lines;
}

export function rangeEdit(
  plan: Plan,
  doc: Doc,
  path: string,
  start: number,
  end: number,
  content: string,
  old: string | undefined,
  edit: number,
  anchor?: Anchor,
): void {
  if (anchor && start >= 1 && start <= end) ({ start, end } = locate(doc, start, end, anchor, path));
  checkRange(doc, start, end, path);
  if (old !== undefined) checkRangeText(doc, start, end, old, path);
  const lines = addContent(plan, content, false);
  plan.regions.push({ start: start - 1, end, lines, edit });
  plan.removed.push({
    text: joinLines(doc.lines, doc.eols, start - 1, end),
    origin: origin(path, start, end),
  });
}

export function insertEdit(
  plan: Plan,
  doc: Doc,
  path: string,
  after: number,
  content: string,
  edit: number,
  anchor?: Anchor,
): void {
  if (anchor) {
    if (after < 1) {
      throw new EditError(
        "invalid_argument",
        "range_hash anchors the line an insert goes after; at after_line 0 there is none, use expected_hash",
        { path, total_lines: doc.lines.length },
      );
    }
    after = locate(doc, after, after, anchor, path).start;
  }
  checkInsert(doc, after, path);
  const lines = addContent(plan, content, doc.lines.length === 0);
  plan.regions.push({ start: after, end: after, lines, edit });
}

export function textEdit(
  plan: Plan,
  doc: Doc,
  path: string,
  old: string,
  content: string,
  edit: number,
  anchor?: Anchor,
): void {
  const m = findUnique(doc, old, content, path, edit);
  if (anchor) checkAnchored(doc, m.startLine, m.endLine, anchor, path);
  if (content.includes("\r\n")) plan.contentCrlf = true;
  plan.regions.push(m.region);
  plan.removed.push({ text: m.removed, origin: origin(path, m.startLine, m.endLine) });
}

export function tooLong(edits: number, max: number): EditError {
  return new EditError("too_large", `a batch holds at most ${max} edits, got ${edits}; split it`);
}
