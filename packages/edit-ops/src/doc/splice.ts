// Applies line regions to a document against one snapshot. Promises: lines outside every region
// keep their text and their own ending; a new line reuses the ending of the old line it replaces
// (position by position) or takes the file's dominant ending; the final-newline state of the file
// is kept (for an empty file it follows the inserted content), except that a file whose last
// line is empty after the edit ends with a newline — without one that line would vanish.

import { EditError } from "../errors.js";
import {
  countEols,
  type Doc,
  dominantEol,
  type Eol,
  hasFinalNewline,
  knownEols,
  lineEndingStyle,
} from "./lines.js";

/** Replace old lines [start, end) (0-based, end exclusive) with `lines`. start === end inserts. */
export interface Region {
  start: number;
  end: number;
  lines: string[];
  /** Index of the caller's edit, for error messages and per-edit results. */
  edit: number;
}

export interface SpliceResult {
  doc: Doc;
  /** New-file position [start, end) of each region, in region order. */
  placed: Array<{ start: number; end: number }>;
  /** For each new line, the old line it is a byte-identical copy of, or -1. */
  from: Int32Array;
}

/** Sort regions by position (stable) and refuse overlaps, naming both edits. */
function orderRegions(regions: Region[]): Region[] {
  const sorted = regions
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.start - b.r.start || a.r.end - b.r.end || a.i - b.i)
    .map((x) => x.r);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    // Two inserts at one point are fine (applied in order); anything sharing a replaced line is not.
    if (cur.start < prev.end) {
      throw new EditError(
        "invalid_range",
        `edits ${prev.edit + 1} (lines ${prev.start + 1}-${prev.end}) and ${cur.edit + 1} ` +
          `(lines ${cur.start + 1}-${Math.max(cur.end, cur.start + 1)}) overlap; merge them into one edit`,
      );
    }
  }
  return sorted;
}

/**
 * `unstyledEol` is the ending new lines take when the file has no line ending to follow (empty,
 * or one line without a newline): the content's own style, so CRLF text stays CRLF there.
 */
export function splice(
  doc: Doc,
  regions: Region[],
  emptyFileFinalNewline: boolean,
  unstyledEol: "\n" | "\r\n" = "\n",
): SpliceResult {
  const ordered = orderRegions(regions);
  const dom = lineEndingStyle(doc) === "none" ? unstyledEol : dominantEol(doc);
  const finalNewline = doc.lines.length === 0 ? emptyFileFinalNewline : hasFinalNewline(doc);
  const newLength = regions.reduce((n, r) => n + r.lines.length - (r.end - r.start), doc.lines.length);
  // Untouched spans are copied with slice (a memcpy), which matters for 100,000-line files.
  const lineParts: string[][] = [];
  const eolParts: Eol[][] = [];
  const from = new Int32Array(newLength);
  const placedByRegion = new Map<Region, { start: number; end: number }>();
  let at = 0;
  let out = 0;
  // Line-ending counts of the result, from the old ones and the changed lines only.
  const counts = { ...countEols(doc) };
  const tally = (e: Eol | undefined, d: number) => {
    if (e === "\r\n") counts.crlf += d;
    else if (e === "\n") counts.lf += d;
  };
  const copy = (to: number) => {
    if (to <= at) return;
    lineParts.push(doc.lines.slice(at, to));
    eolParts.push(doc.eols.slice(at, to));
    // from[out + k] = at + k for the whole span: one block copy where the table reaches.
    if (to <= IDENTITY_MAX) {
      from.set(identity(to).subarray(at, to), out);
      out += to - at;
    } else for (let i = at; i < to; i++) from[out++] = i;
    at = to;
  };
  for (const r of ordered) {
    copy(r.start);
    const oldCount = r.end - r.start;
    const start = out;
    lineParts.push(r.lines);
    const taken = r.lines.map((_, j) => (j < oldCount ? doc.eols[r.start + j]! : dom));
    eolParts.push(taken);
    for (let i = r.start; i < r.end; i++) tally(doc.eols[i], -1);
    for (const e of taken) tally(e, 1);
    for (let j = 0; j < r.lines.length; j++) from[out++] = -1;
    placedByRegion.set(r, { start, end: out });
    at = Math.max(at, r.end);
  }
  copy(doc.lines.length);
  const lines = lineParts.length === 1 ? lineParts[0]! : ([] as string[]).concat(...lineParts);
  const eols = eolParts.length === 1 ? eolParts[0]! : ([] as Eol[]).concat(...eolParts);
  const n = lines.length;
  const setEol = (i: number, e: Eol) => {
    if (eols[i] === e) return;
    tally(eols[i], -1);
    tally(e, 1);
    eols[i] = e;
    from[i] = -1;
  };
  // The old last line (or a new line that took its ending) may lack one; only the last may.
  for (let i = 0; i < n - 1; i++) if (eols[i] === "") setEol(i, dom);
  if (n > 0) {
    // An empty last line exists only through its ending: keep it rather than lose the line.
    if (!finalNewline && lines[n - 1] !== "") setEol(n - 1, "");
    else if (eols[n - 1] === "") setEol(n - 1, dom);
  }
  knownEols(eols, counts);
  return {
    doc: { bom: doc.bom, lines, eols },
    placed: regions.map((r) => placedByRegion.get(r)!),
    from,
  };
}

// 0, 1, 2, … kept for files up to IDENTITY_MAX lines (4 MiB at most, kept for the process's
// life): copying old line numbers into `from` is then one memcpy per untouched span.
const IDENTITY_MAX = 1 << 20;
let identityCache = new Int32Array(0);
function identity(n: number): Int32Array {
  if (identityCache.length < n) {
    identityCache = new Int32Array(Math.min(IDENTITY_MAX, Math.max(n, identityCache.length * 2)));
    for (let i = 0; i < identityCache.length; i++) identityCache[i] = i;
  }
  return identityCache;
}
