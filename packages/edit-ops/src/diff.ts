// Compact unified diffs of an edit. Only windows around the changed regions are handed to the
// `diff` package (so a one-line edit of a 100,000-line file diffs a few lines, not the file);
// their hunks are shifted to file line numbers and formatted as one patch. Line endings are not
// shown (every line is "\n"-terminated), except the "\ No newline at end of file" marker.

import { formatPatch, type StructuredPatch, type StructuredPatchHunk, structuredPatch } from "diff";
import type { Doc } from "./text.js";

export const CONTEXT = 3;
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

function fallbackHunk(a: string, b: string): StructuredPatchHunk {
  const split = (t: string) => (t === "" ? [] : t.replace(/\n$/, "").split("\n"));
  const oldLines = split(a);
  const newLines = split(b);
  const lines = [...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)];
  return { oldStart: 1, oldLines: oldLines.length, newStart: 1, newLines: newLines.length, lines };
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
    const patch = structuredPatch("a", "b", a, b, undefined, undefined, {
      context: CONTEXT,
      maxEditLength: MAX_EDIT_LENGTH,
    });
    const parts = patch ? patch.hunks : [fallbackHunk(a, b)];
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
