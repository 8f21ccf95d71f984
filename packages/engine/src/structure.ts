// Content structure read from the lines themselves, not from lists of formats: whitespace-aligned
// columns (process lists, package lists, `ls -l`, `kubectl get`), line-template repetition under a
// stable prefix (logs in any clock style: `081109 203615`, `17/06/09 20:10:40`, `[Sun Dec 04 ...]`,
// `I1201 15:00:00.123456`), grep's heading form and bare path lists. Every test is one or two
// linear passes over a bounded sample; when a test is unsure it says no, and the caller falls
// back to a kind that restructures less.

import { tick } from "./work.js";

/** A column of an aligned table: [start, end) character positions shared by every row. */
export interface Column {
  start: number;
  end: number;
}

/** Rows wider than this are not read as table rows (a table row is a screen line or so). */
const MAX_ROW = 400;

/**
 * Columns of whitespace-aligned rows: the maximal runs of positions where at least one row has a
 * non-space character, split by positions where every row has a space (or has ended). Exact: a
 * single row whose cell runs over a gap merges the two columns, so a cell is never cut.
 */
export function alignedColumns(rows: readonly string[]): Column[] {
  let width = 0;
  for (const r of rows) if (r.length > width) width = r.length;
  if (width > MAX_ROW) return [];
  const used = new Uint8Array(width);
  tick(rows.length);
  for (const r of rows) for (let p = 0; p < r.length; p++) if (r.charCodeAt(p) !== 32) used[p] = 1;
  const cols: Column[] = [];
  let p = 0;
  while (p < width) {
    while (p < width && !used[p]) p++;
    if (p >= width) break;
    const start = p;
    while (p < width && used[p]) p++;
    cols.push({ start, end: p });
  }
  return cols;
}

/** Cells of `row` under `cols` (the last column runs to the end of the row). */
export function cellsOf(row: string, cols: readonly Column[]): string[] {
  return cols.map((c, k) =>
    row.slice(c.start, k === cols.length - 1 ? undefined : cols[k + 1]!.start).trim(),
  );
}

const HEADER_WORD = /^[A-Z%#][A-Za-z%#_/-]*$|^[a-z][a-z_]*$/;

/** The first row (among the first few) that reads as a column header, and its index. */
export function headerRow(rows: readonly string[]): number {
  for (let i = 0; i < Math.min(rows.length, 6); i++) {
    const words = rows[i]!.trim().split(/\s+/);
    if (
      words.length >= 3 &&
      !/\d/.test(rows[i]!) &&
      words.filter((w) => HEADER_WORD.test(w)).length >= words.length * 0.8
    )
      return i;
  }
  return -1;
}

/**
 * Where an aligned table starts (its header, or its first row when every row has the same number
 * of words, as `ls -l` rows do), or -1. Needs 3+ columns that hold in every row below the start
 * and 4+ such rows. Rows above the start (`total 42`, dpkg's legend) are a preamble.
 */
export function alignedTableStart(lines: readonly string[]): number {
  const rows = lines.filter((l) => l.trim() !== "" && !/^[+=|-]+[-+=| ]*$/.test(l.trim()));
  if (rows.length < 5 || rows.some((r) => r.includes("\t"))) return -1;
  const h = headerRow(rows);
  const body =
    h >= 0 ? rows.slice(h) : rows.slice(rows.length > 6 && rows[0]!.trim().split(/\s+/).length <= 2 ? 1 : 0);
  if (body.length < 5) return -1;
  const cols = alignedColumns(body);
  if (cols.length < 3) return -1;
  if (h < 0) {
    // Without a header, every row must have the same number of words and fill every column.
    const words = body[0]!.trim().split(/\s+/).length;
    if (words < 4 || words !== cols.length) return -1;
    if (!body.every((r) => r.trim().split(/\s+/).length === words)) return -1;
  } else {
    // The header's words must sit in 3+ distinct columns, and most rows must fill 3+ columns.
    const header = cellsOf(body[0]!, cols).filter((c) => c !== "").length;
    if (header < 3) return -1;
    let full = 0;
    for (const r of body) if (cellsOf(r, cols).filter((c) => c !== "").length >= 3) full++;
    if (full < body.length * 0.9) return -1;
  }
  return lines.indexOf(body[0]!);
}

/** The shape of a token: digit runs as "9", letter runs as "a" (so `17/06/09` is "9/9/9"). */
function shapeOf(token: string): string {
  return token.replace(/\d+/g, "9").replace(/[A-Za-z]+/g, "a");
}

/** A clock, date or counter in a line's opening characters: `20:10:40`, `17/06/09`, `081109`. */
const TIMELIKE = /\d[:./-]\d\d|\d{6}/;

/** The prefix shape of a line (its first two tokens by shape), or "" when it holds no clock. */
function timedShape(line: string): string {
  if (!TIMELIKE.test(line.slice(0, 40))) return "";
  const tokens = line.trimStart().split(/\s+/, 2);
  return `${shapeOf(tokens[0] ?? "")} ${shapeOf(tokens[1] ?? "")}`;
}

/** Lines a log region must hold before it is folded as a log inside other text. */
const MIN_LOG_REGION = 30;

/**
 * Log regions inside text that is not a log as a whole (a CI transcript, a terminal session):
 * maximal runs of lines sharing the most common timed prefix shape, continuation lines (indented,
 * stack frames) riding along, each at least MIN_LOG_REGION lines. Half-open [from, to) spans.
 */
export function logRegions(lines: readonly string[]): Array<[number, number]> {
  tick(lines.length);
  const shapes = lines.map(timedShape);
  const counts = new Map<string, number>();
  for (const s of shapes) if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
  let top = "";
  let best = 0;
  for (const [s, c] of counts)
    if (c > best) {
      top = s;
      best = c;
    }
  if (best < MIN_LOG_REGION) return [];
  const regions: Array<[number, number]> = [];
  let i = 0;
  while (i < lines.length) {
    if (shapes[i] !== top) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < lines.length && (shapes[j] === top || /^\s+\S/.test(lines[j]!))) j++;
    if (j - i >= MIN_LOG_REGION) regions.push([i, j]);
    i = j;
  }
  return regions;
}

/**
 * True when most lines open with the same prefix shape (the first two tokens by shape) and a
 * clock or counter, and what follows varies: a log, whatever its timestamp style. Continuation
 * lines (stack frames, tracebacks) do not share the prefix, so 60% of lines is enough.
 */
export function isStructuredLog(lines: readonly string[]): boolean {
  const rows = lines.filter((l) => l.trim() !== "");
  if (rows.length < 8) return false;
  const shapes = new Map<string, number>();
  const rests = new Set<string>();
  let timed = 0;
  for (const row of rows) {
    const tokens = row.trimStart().split(/\s+/, 2);
    const shape = `${shapeOf(tokens[0] ?? "")} ${shapeOf(tokens[1] ?? "")}`;
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    const head = row.slice(0, 40);
    if (TIMELIKE.test(head)) timed++;
    if (rests.size < 3) rests.add(row.slice(0, 120).replace(/\d+/g, "#"));
  }
  let topCount = 0;
  for (const count of shapes.values()) if (count > topCount) topCount = count;
  return topCount >= rows.length * 0.6 && timed >= rows.length * 0.6 && rests.size >= 3;
}

const PATH = /^(\.{0,2}\/)?[\w@.+-]+(\/[\w@.+ -]+)+\/?$|^[\w@+-]+\.\w{1,8}$/;

const COUNT_SUFFIX = /:\d+$/;

/** The path of a path-list line: the line, or the line without grep -c's `:count`. */
export function pathOf(line: string): string | undefined {
  if (PATH.test(line) || line === ".") return line;
  const bare = line.replace(COUNT_SUFFIX, "");
  return bare !== line && PATH.test(bare) ? bare : undefined;
}

/** True when nearly every line is a file path (`find`, `grep -l`, `git ls-files`, `grep -c`'s `path:N`). */
export function isPathList(lines: readonly string[]): boolean {
  const rows = lines.filter((l) => l.trim() !== "");
  if (rows.length < 8) return false;
  let paths = 0;
  for (const r of rows) if (pathOf(r) !== undefined) paths++;
  return paths >= rows.length * 0.95;
}

const HEADING_HIT = /^\d+[:-]/;

/** ripgrep's heading form: a path line, its `line:text` hits, a blank line, the next path. */
export function isGrepHeading(lines: readonly string[]): boolean {
  let hits = 0;
  let heads = 0;
  let other = 0;
  let prevBlank = true;
  for (const line of lines) {
    if (line.trim() === "") {
      prevBlank = true;
      continue;
    }
    if (HEADING_HIT.test(line)) hits++;
    else if (prevBlank && PATH.test(line)) heads++;
    else other++;
    prevBlank = false;
  }
  return heads >= 1 && hits >= 4 && other <= (hits + heads) * 0.05;
}
