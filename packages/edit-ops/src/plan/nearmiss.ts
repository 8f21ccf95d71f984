// Near-miss diagnostics for a text edit whose `old` text did not match exactly: the closest places
// in the file, with their lines, a similarity figure and the first difference, character by
// character. Whitespace-only and line-ending-only differences are named as such. Promises:
// - it only explains a miss; matching stays exact and nothing here decides what is edited;
// - its work is bounded whatever the file holds: at most MAX_SCANS substring scans of the file
//   (each stopping after MAX_HITS hits), MAX_CANDIDATES places scored, and each score compares at
//   most MAX_COMPARE characters with a MAX_MIDDLE² dynamic program (see `nearMissWork`).
// Written here rather than taken from `diff`: the library has no bound on work per comparison
// that keeps a 100,000-line file under a few tens of milliseconds, and only the first difference
// and one ratio are needed.

import { type Doc, lineAt } from "../doc/lines.js";

export interface NearMiss {
  /** 1-based inclusive lines of the file the candidate covers. */
  start_line: number;
  end_line: number;
  /** 0..1: twice the characters in common over the characters of both texts. */
  similarity: number;
  /** What kind of difference: any, only whitespace, or only line endings. */
  kind: "text" | "whitespace" | "line_endings";
  /** The first difference, as `line N col C: file "…" vs old "…"`. */
  detail: string;
}

const MAX_SCANS = 14;
const MAX_HITS = 48;
const MAX_CANDIDATES = 12;
const MAX_COMPARE = 4000;
const MAX_MIDDLE = 400;
const SHOW = 3;
const MIN_SIMILARITY = 0.5;

/** Work done by the last call (for tests that hold the bound without timing anything). */
export const nearMissWork = { scans: 0, candidates: 0, cells: 0 };

interface Probe {
  text: string;
  /** Needle line the probe comes from, and its column there. */
  line: number;
  col: number;
}

/** Exact needle lines (trimmed) first, then words and other runs, longest (likely rarest) first. */
function probes(lines: string[]): Probe[] {
  const out: Probe[] = [];
  const seen = new Set<string>();
  const add = (text: string, line: number, col: number) => {
    if (seen.has(text)) return;
    seen.add(text);
    out.push({ text, line, col });
  };
  const whole = lines
    .map((l, i) => ({ t: l.trim(), i, col: l.length - l.trimStart().length }))
    .filter((x) => x.t.length >= 6)
    .sort((a, b) => b.t.length - a.t.length)
    .slice(0, 6);
  for (const w of whole) add(w.t, w.i, w.col);
  const tokens: Probe[] = [];
  lines.forEach((l, i) => {
    for (const m of l.matchAll(/[A-Za-z_$][\w$]{2,}|\d{3,}/g)) {
      tokens.push({ text: m[0], line: i, col: m.index });
      // A typo inside a long name still leaves one of its halves intact.
      if (m[0].length >= 8) {
        const half = Math.ceil(m[0].length / 2);
        tokens.push({ text: m[0].slice(0, half), line: i, col: m.index });
        tokens.push({ text: m[0].slice(half), line: i, col: m.index + half });
      }
    }
  });
  // Then any run without whitespace (`3;`, `=>`), so short code with odd spacing is found too.
  lines.forEach((l, i) => {
    for (const m of l.matchAll(/\S{2,}/g)) tokens.push({ text: m[0], line: i, col: m.index });
  });
  tokens.sort((a, b) => b.text.length - a.text.length);
  for (const t of tokens) add(t.text, t.line, t.col);
  return out.slice(0, MAX_SCANS);
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffix(a: string, b: string, floor: number): number {
  const n = Math.min(a.length, b.length) - floor;
  let i = 0;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/** Longest common subsequence length of two short strings (two-row dynamic program). */
function lcs(a: string, b: string): number {
  let prev = new Uint16Array(b.length + 1);
  let cur = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] =
        a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  nearMissWork.cells += a.length * b.length;
  return prev[b.length]!;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * A short quoted piece of `text` around offset `at`, from no earlier than its line's start; it may
 * run on past a line break, so a missing or extra newline shows as \n. … marks a cut.
 */
function snippet(text: string, at: number, lineStart: number): string {
  const from = Math.max(lineStart, at - 20);
  const to = Math.min(text.length, at + 24);
  return `${from > lineStart ? "…" : ""}${JSON.stringify(text.slice(from, to))}${to < text.length ? "…" : ""}`;
}

const lineStart = (text: string, from: number) => text.lastIndexOf("\n", from - 1) + 1;

/**
 * A difference as `line N col C: file "…" vs old "…"`, placed in the file: `f` is its offset in
 * the window (whose first line is file line `firstLine`), `o` its offset in old.
 */
function difference(window: string, f: number, firstLine: number, old: string, o: number): string {
  let li = 0;
  for (let k = window.indexOf("\n"); k !== -1 && k < f; k = window.indexOf("\n", k + 1)) li++;
  const col = f - lineStart(window, f);
  return `line ${firstLine + li} col ${col + 1}: file ${snippet(window, f, lineStart(window, f))} vs old ${snippet(old, o, lineStart(old, o))}`;
}

const space = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;

/** The first difference that is not whitespace (offsets in both), or null if only whitespace differs. */
function firstRealDifference(a: string, b: string): [number, number] | null {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && space(a.charCodeAt(i))) i++;
    while (j < b.length && space(b.charCodeAt(j))) j++;
    if (i >= a.length || j >= b.length) return i >= a.length && j >= b.length ? null : [i, j];
    if (a.charCodeAt(i) !== b.charCodeAt(j)) return [i, j];
    i++;
    j++;
  }
}

/** The file's lines [start, start + count) joined with "\n", stopping once `limit` characters are in. */
function windowText(doc: Doc, start: number, count: number, limit: number): { text: string; end: number } {
  const end = Math.min(doc.lines.length, start + count);
  let text = "";
  let i = start;
  for (; i < end && text.length <= limit; i++) text += (i > start ? "\n" : "") + doc.lines[i]!;
  return { text, end: i };
}

/**
 * Score one place: the file's lines [start, start + count) against the needle. `col` is where
 * the needle would start on the first line when it begins mid-line.
 */
function score(doc: Doc, needle: string, start: number, count: number, cols: number[]): NearMiss {
  const first = doc.lines[start]!;
  // Windows are whole lines without their last ending, so the needle's final newline is left
  // out of the comparison (and looked at only for the line-ending verdict).
  const endsWithNewline = needle.endsWith("\n");
  const old = (endsWithNewline ? needle.slice(0, -1) : needle).slice(0, MAX_COMPARE);
  const { text: window, end } = windowText(doc, start, count, first.length + MAX_COMPARE);
  // Where on the first line the needle starts: the probes' guesses, or where both texts' first
  // words start. The guess that makes the texts equal but for whitespace wins, else the longest
  // common prefix.
  const guesses = [...cols, first.length - first.trimStart().length - (old.length - old.trimStart().length)];
  let shift = 0;
  let best = -1;
  for (const g of guesses) {
    const at = Math.max(0, Math.min(g, first.length));
    const text = window.slice(at, at + MAX_COMPARE);
    const fit = collapse(text).startsWith(collapse(old)) ? Number.MAX_SAFE_INTEGER : commonPrefix(text, old);
    if (fit > best) {
      best = fit;
      shift = at;
    }
  }
  let file = window.slice(shift, shift + MAX_COMPARE);
  // A needle that ends mid-line is compared with as much of the last line as it would cover.
  const tailOld = old.length - old.lastIndexOf("\n") - 1;
  const cut = file.lastIndexOf("\n") + 1 + tailOld;
  if (
    tailOld > 0 &&
    cut < file.length &&
    commonSuffix(file.slice(0, cut), old, 0) > commonSuffix(file, old, 0)
  )
    file = file.slice(0, cut);
  const p = commonPrefix(file, old);
  const s = commonSuffix(file, old, p);
  const midFile = file.slice(p, file.length - s);
  const midOld = old.slice(p, old.length - s);
  const middle = midFile.length <= MAX_MIDDLE && midOld.length <= MAX_MIDDLE ? lcs(midFile, midOld) : 0;
  const similarity = (2 * (p + s + middle)) / Math.max(1, file.length + old.length);
  let kind: NearMiss["kind"] = "text";
  if (file.replace(/\r/g, "") === old.replace(/\r/g, "")) kind = "line_endings";
  else if (collapse(file) === collapse(old)) kind = "whitespace";
  let detail: string;
  if (kind === "line_endings") {
    detail =
      file === old && endsWithNewline && end === doc.lines.length && doc.eols[end - 1] === ""
        ? `the file's last line (${end}) has no newline at its end, but old ends with one`
        : "a carriage return (\\r) differs";
  } else {
    detail = difference(window, shift + p, start + 1, old, p);
    // Indentation first and a typo later: point at the typo, which is what needs fixing.
    const real = kind === "text" && (space(file.charCodeAt(p)) || space(old.charCodeAt(p)));
    const at = real ? firstRealDifference(file, old) : null;
    if (at)
      detail = `${difference(window, shift + at[0], start + 1, old, at[1])}; whitespace differs too (${detail.slice(0, detail.indexOf(":"))})`;
  }
  return { start_line: start + 1, end_line: end, similarity, kind, detail };
}

/**
 * The closest places to `needle` (already "\n"-normalised) in `doc`, best first; `hay` is the
 * file's "\n"-joined text and `starts` its line offsets (what the matcher already built).
 */
export function nearMisses(doc: Doc, hay: string, starts: ArrayLike<number>, needle: string): NearMiss[] {
  nearMissWork.scans = 0;
  nearMissWork.candidates = 0;
  nearMissWork.cells = 0;
  const n = doc.lines.length;
  if (n === 0 || needle.trim() === "") return [];
  const lines = (needle.endsWith("\n") ? needle.slice(0, -1) : needle).split("\n");
  // Probes come from the head of a long needle only; the compared text is capped the same way.
  const head = needle.slice(0, MAX_COMPARE).split("\n");
  const votes = new Map<number, { votes: number; cols: number[] }>();
  for (const probe of probes(head)) {
    nearMissWork.scans++;
    let hits = 0;
    const found: number[] = [];
    for (let i = hay.indexOf(probe.text); i !== -1 && hits <= MAX_HITS; i = hay.indexOf(probe.text, i + 1)) {
      hits++;
      found.push(i);
    }
    if (hits > MAX_HITS) continue; // too common to point anywhere
    for (const h of found) {
      const line = lineAt(starts, h);
      const start = line - probe.line;
      if (start < 0 || start >= n) continue;
      const v = votes.get(start);
      const col = probe.line === 0 ? h - starts[line]! - probe.col : 0;
      if (!v) votes.set(start, { votes: 1, cols: [col] });
      else {
        v.votes++;
        if (v.cols.length < 4 && !v.cols.includes(col)) v.cols.push(col);
      }
    }
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1].votes - a[1].votes || a[0] - b[0]);
  const scored: NearMiss[] = [];
  for (const [start, v] of ranked.slice(0, MAX_CANDIDATES)) {
    nearMissWork.candidates++;
    scored.push(score(doc, needle, start, lines.length, v.cols));
  }
  scored.sort((a, b) => rank(b) - rank(a) || a.start_line - b.start_line);
  // Runners-up far behind the best are noise: a model would chase them.
  const floor = Math.max(MIN_SIMILARITY, rank(scored[0] ?? { similarity: 0, kind: "text" }) - 0.15);
  return scored.filter((c) => rank(c) >= floor).slice(0, SHOW);
}

/** Whitespace- and line-ending-only differences rank above any other. */
function rank(c: Pick<NearMiss, "similarity" | "kind">): number {
  return c.kind === "text" ? c.similarity : 1 + c.similarity;
}

/** The candidates as the compact text a model reads after the error line. */
export function formatNearMisses(list: NearMiss[]): string {
  if (list.length === 0) return "";
  const rows = list.map((c) => {
    const where =
      c.start_line === c.end_line ? `line ${c.start_line}` : `lines ${c.start_line}-${c.end_line}`;
    const how =
      c.kind === "whitespace"
        ? "only whitespace differs"
        : c.kind === "line_endings"
          ? "only line endings differ"
          : `${Math.floor(c.similarity * 100)}% similar`;
    return `- ${where}, ${how}; ${c.detail}`;
  });
  return `\nclosest:\n${rows.join("\n")}`;
}
