// Compact unified diffs of an edit. Only windows around the changed regions are handed to the
// `diff` package (so a one-line edit of a 100,000-line file diffs a few lines, not the file);
// their hunks are shifted to file line numbers and formatted as one patch. Line endings are not
// shown (every line is "\n"-terminated), except the "\ No newline at end of file" marker.
// A whole-file change (write, undo) names its changed span with `lineChange`.

import { formatPatch, type StructuredPatch, type StructuredPatchHunk, structuredPatch } from "diff";
import type { Doc } from "./lines.js";

const CONTEXT = 3;
const MAX_EDIT_LENGTH = 4000;

/** A changed span: old lines [oldStart, oldEnd) became new lines [newStart, newEnd). */
export interface Change {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

export interface DiffSummary {
  diff: string;
  added: number;
  removed: number;
}

/**
 * The changed span between two documents when no regions are known (write, undo): lines and
 * their endings compared from both ends. Null when they are the same (BOM included).
 */
export function lineChange(a: Doc, b: Doc): Change | null {
  const max = Math.min(a.lines.length, b.lines.length);
  let p = 0;
  while (p < max && a.lines[p] === b.lines[p] && a.eols[p] === b.eols[p]) p++;
  let s = 0;
  while (
    s < max - p &&
    a.lines[a.lines.length - 1 - s] === b.lines[b.lines.length - 1 - s] &&
    a.eols[a.eols.length - 1 - s] === b.eols[b.eols.length - 1 - s]
  ) {
    s++;
  }
  if (p === a.lines.length && p === b.lines.length && a.bom === b.bom) return null;
  return { oldStart: p, oldEnd: a.lines.length - s, newStart: p, newEnd: b.lines.length - s };
}

function windowText(doc: Doc, from: number, to: number): string {
  if (to <= from) return "";
  const body = doc.lines.slice(from, to).join("\n");
  const atEnd = to === doc.lines.length;
  return atEnd && doc.eols[to - 1] === "" ? body : `${body}\n`;
}

/** Merge changes whose context windows touch, so each cluster becomes one diff call. */
function clusters(changes: Change[], oldLen: number): Change[] {
  // Ties on oldStart are inserts and a replacement at one point (batch). The splice places the
  // inserts first, so sorting by (oldStart, oldEnd, newStart) keeps new-file order: the first
  // change opens the window and the last one, which ends furthest, closes it.
  const sorted = [...changes].sort(
    (a, b) => a.oldStart - b.oldStart || a.oldEnd - b.oldEnd || a.newStart - b.newStart,
  );
  const out: Change[] = [];
  for (const c of sorted) {
    const w = {
      oldStart: Math.max(0, c.oldStart - CONTEXT),
      oldEnd: Math.min(oldLen, c.oldEnd + CONTEXT),
      newStart: 0,
      newEnd: 0,
    };
    w.newStart = c.newStart - (c.oldStart - w.oldStart);
    w.newEnd = c.newEnd + (w.oldEnd - c.oldEnd);
    const last = out[out.length - 1];
    if (last && w.oldStart <= last.oldEnd) {
      // Only the later change maps its trailing context 1:1 to the new file; an earlier window's
      // end may lie past lines the later change deleted.
      if (w.oldEnd >= last.oldEnd) {
        last.oldEnd = w.oldEnd;
        last.newEnd = w.newEnd;
      }
    } else {
      out.push(w);
    }
  }
  return out;
}

/**
 * Myers' diff costs about (lines of both sides) x (edit length) steps; more than this many
 * steps and the window is diffed line against line instead (linear), so a whole-file write of a
 * few megabytes cannot hold the event loop for seconds. The diff is for reading, and cut at
 * maxDiffBytes anyway; the file's bytes never depend on it.
 */
const MYERS_BUDGET = 4_000_000;
const MIN_EDIT_LENGTH = 64;
const NO_NEWLINE = "\\ No newline at end of file";

interface Side {
  lines: string[];
  /** The window's last line is the file's last line and has no newline. */
  open: boolean;
}

function side(doc: Doc, from: number, to: number): Side {
  return {
    lines: doc.lines.slice(from, to),
    open: to === doc.lines.length && to > from && doc.eols[to - 1] === "",
  };
}

/**
 * Linear diff: line i of one side against line i of the other, the longer side's tail as pure
 * removal or addition. Not minimal when lines were inserted, but exact: every context line is
 * equal on both sides and every removed/added line is shown.
 */
export function alignedHunks(a: Side, b: Side): StructuredPatchHunk[] {
  const n = Math.max(a.lines.length, b.lines.length);
  const lastA = a.lines.length - 1;
  const lastB = b.lines.length - 1;
  const same = (i: number) =>
    i <= lastA &&
    i <= lastB &&
    a.lines[i] === b.lines[i] &&
    (i === lastA && a.open) === (i === lastB && b.open);
  const hunks: StructuredPatchHunk[] = [];
  let i = 0;
  while (i < n) {
    if (same(i)) {
      i++;
      continue;
    }
    // A hunk: changed runs separated by at most 2 x CONTEXT equal lines, with CONTEXT around.
    const start = Math.max(0, i - CONTEXT);
    const lines: string[] = [];
    for (let k = start; k < i; k++) lines.push(` ${a.lines[k]}`);
    let end = i;
    for (;;) {
      let q = end;
      while (q < n && !same(q)) q++;
      for (let k = end; k < Math.min(q, a.lines.length); k++) {
        lines.push(`-${a.lines[k]}`);
        if (k === lastA && a.open) lines.push(NO_NEWLINE);
      }
      for (let k = end; k < Math.min(q, b.lines.length); k++) {
        lines.push(`+${b.lines[k]}`);
        if (k === lastB && b.open) lines.push(NO_NEWLINE);
      }
      let r = q;
      while (r < n && r - q <= 2 * CONTEXT && same(r)) r++;
      if (r < n && r - q <= 2 * CONTEXT) {
        for (let k = q; k < r; k++) lines.push(` ${a.lines[k]}`);
        end = r;
        continue;
      }
      const stop = Math.min(n, q + CONTEXT, r);
      for (let k = q; k < stop; k++) {
        lines.push(` ${a.lines[k]}`);
        if (k === lastA && a.open) lines.push(NO_NEWLINE);
      }
      end = stop;
      break;
    }
    const oldLines = Math.max(0, Math.min(end, a.lines.length) - start);
    const newLines = Math.max(0, Math.min(end, b.lines.length) - start);
    // jsdiff's convention: starts are 1-based even for an empty side (formatPatch prints -0,0).
    hunks.push({ oldStart: start + 1, oldLines, newStart: start + 1, newLines, lines });
    i = end;
  }
  return hunks;
}

export function unifiedDiff(
  name: string,
  before: Doc,
  after: Doc,
  changes: Change[],
  maxBytes: number,
): DiffSummary {
  const hunks: StructuredPatchHunk[] = [];
  for (const w of clusters(changes, before.lines.length)) {
    const a = windowText(before, w.oldStart, w.oldEnd);
    const b = windowText(after, w.newStart, w.newEnd);
    if (a === b) continue;
    const size = w.oldEnd - w.oldStart + (w.newEnd - w.newStart);
    const editLength = Math.min(MAX_EDIT_LENGTH, Math.floor(MYERS_BUDGET / Math.max(1, size)));
    const patch =
      editLength >= MIN_EDIT_LENGTH
        ? structuredPatch("a", "b", a, b, undefined, undefined, {
            context: CONTEXT,
            maxEditLength: editLength,
          })
        : undefined;
    const parts = patch
      ? patch.hunks
      : alignedHunks(side(before, w.oldStart, w.oldEnd), side(after, w.newStart, w.newEnd));
    for (const h of parts) {
      hunks.push({ ...h, oldStart: h.oldStart + w.oldStart, newStart: h.newStart + w.newStart });
    }
  }
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.startsWith("+")) added++;
      else if (l.startsWith("-")) removed++;
    }
  }
  if (hunks.length === 0) return { diff: "", added, removed };
  const patch: StructuredPatch = {
    oldFileName: `a/${name}`,
    newFileName: `b/${name}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
  };
  let text = formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) {
    // A minified file's one changed line can be larger than the whole budget: show the head of
    // each overlong line rather than cutting the diff down to its headers.
    const lineCap = Math.max(80, Math.floor(maxBytes / 8));
    const clipped = text.replace(/^([-+ ])(.*)$/gm, (line, mark: string, body: string) =>
      body.length > lineCap
        ? `${mark}${body.slice(0, lineCap)} [... ${body.length - lineCap} more characters]`
        : line,
    );
    const cut = Buffer.from(clipped)
      .subarray(0, maxBytes)
      .toString("utf8")
      .replace(/\n[^\n]*$/, "\n");
    text = `${cut}... diff cut at ${maxBytes} of ${bytes} bytes (+${added} -${removed} lines in all); read the file for the rest\n`;
  }
  return { diff: text, added, removed };
}
