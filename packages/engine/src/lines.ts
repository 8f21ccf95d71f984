// Line-level rendering shared by the line-based compressors: keep a set of original lines and
// replace every maximal run of dropped lines with one marker whose facts come from exactly that
// run. Line numbers in markers are 1-based lines of the input, as `narrow("lines:a-b")` takes them.
import { formatMarker, isMarkerLine, lineSpan, type MarkerSpec } from "./markers.js";
import { countTokens } from "./tokens.js";
import { tick } from "./work.js";

/** Whole-input searches allowed for slices found out of order before the check fails closed. */
const UNORDERED_SEARCHES = 32;

/**
 * True when every line of `output` is a line or slice of a line of `input`, or a marker line.
 * Slices (shortened lines) are searched from where the previous slice was found, because the
 * line compressors keep input order: a search per slice from the start of the input made 100,000
 * shortened diagnostics take minutes. A few out-of-order slices may search the whole input;
 * beyond that the check fails (and compress passes the input through).
 */
export function linesAreHonest(input: string, output: string): boolean {
  const original = new Set(input.split("\n"));
  let cursor = 0;
  let unordered = 0;
  for (const line of output.split("\n")) {
    if (original.has(line) || isMarkerLine(line)) continue;
    const at = input.indexOf(line, cursor);
    if (at >= 0) {
      cursor = at;
      continue;
    }
    if (++unordered > UNORDERED_SEARCHES || !input.includes(line)) return false;
  }
  return true;
}

/**
 * Facts for the dropped lines in [from, to] (0-based inclusive line indices). With regions
 * (RenderOptions.regionGap) the range may hold kept lines too: facts must skip them.
 */
type RunFacts = (from: number, to: number) => readonly string[];

export interface RenderOptions {
  /** Singular unit name in markers (default "line"). */
  unit?: string;
  handle?: string;
  facts?: RunFacts;
  /** Indentation to give a marker, from the first dropped line (default none). */
  indent?: (from: number) => string;
  /**
   * Most kept lines between two dropped runs for one region marker to name both (default 0: a
   * marker per run). Folded output keeps one line here and there between long dropped runs; a
   * marker per gap cost more than the lines it kept, so one marker names the whole region.
   */
  regionGap?: number;
  /**
   * Kept lines (0-based) that marker facts name (`same change as line 9`): no region spans one,
   * so each stays where the model can place it (a region's kept lines carry no numbers).
   */
  anchors?: ReadonlySet<number>;
}

/**
 * The regionGap of the folding kinds (log, grep, table, records, paths, diff): a run of more
 * kept lines than this (a stack trace, a hunk's changes) ends a region, so a region marker
 * stays close to the lines it speaks about.
 */
export const REGION_GAP = 16;

/** A marker must stand for at least this many times its own tokens, else the lines stay. */
const MARKER_PAYBACK = 2;

/**
 * True when the dropped lines cost at least MARKER_PAYBACK times the marker's tokens. Exact
 * counts only for short runs (lines many times the marker's length always pay), so the check
 * stays cheap.
 */
function paysFor(marker: string, dropped: readonly string[]): boolean {
  const bar = MARKER_PAYBACK * marker.length;
  let chars = 0;
  for (let i = 0; i < dropped.length && chars <= bar * 3; i++) chars += dropped[i]!.length + 1;
  if (chars > bar * 3) return true;
  if (chars <= marker.length) return false;
  return countTokens(dropped.join("\n")) >= MARKER_PAYBACK * countTokens(marker);
}

/** paysFor over the contiguous run [from, to] of `lines`. */
function markerPays(marker: string, lines: readonly string[], from: number, to: number): boolean {
  return paysFor(marker, lines.slice(from, to + 1));
}

/** One group covering the whole run needs no count: the span says it (`context x3` -> `context`). */
function impliedCount(facts: readonly string[], count: number): readonly string[] {
  if (facts.length !== 1) return facts;
  const m = /^([^,]*) x(\d+)$/.exec(facts[0]!);
  return m && Number(m[2]) === count ? [m[1]!] : facts;
}

/**
 * Joins kept lines and markers. `keep[i]` true keeps line i. Each maximal dropped run gets one
 * marker (`[caveman: lines a-b elided; ...]`), unless runs lie at most `regionGap` kept lines
 * apart: then one region marker (`[caveman: N of lines a-b elided; ...]`) goes where the first
 * run starts, and the kept lines of the region follow it in order. A marker that would not pay
 * for itself (MARKER_PAYBACK) is not written: a region falls back to a marker per run, a run to
 * its lines verbatim.
 */
export function renderKept(
  lines: readonly string[],
  keep: ArrayLike<boolean | number>,
  opts: RenderOptions = {},
): string {
  const out: string[] = [];
  tick(lines.length);
  const runs: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (keep[i]) continue;
    let j = i;
    while (j + 1 < lines.length && !keep[j + 1]) j++;
    runs.push(i, j);
    i = j;
  }
  const gap = opts.regionGap ?? 0;
  /** The marker for dropped lines in [from, to], `count` of them; and the same with the handle. */
  const marker = (from: number, to: number, count: number): [string, string] => {
    const facts = impliedCount(opts.facts ? opts.facts(from, to) : [], count);
    const where = lineSpan(from + 1, to + 1);
    const spec: MarkerSpec =
      count === to - from + 1
        ? { count, unit: opts.unit ?? "line", where, facts }
        : { count, unit: "line", region: true, where, facts };
    const indent = opts.indent ? opts.indent(from) : "";
    const bare = indent + formatMarker(spec);
    return [bare, opts.handle ? indent + formatMarker({ ...spec, handle: opts.handle }) : bare];
  };
  /** One marker per run of runs[a..b] (pairs), each run verbatim when its marker does not pay. */
  const perRun = (a: number, b: number) => {
    for (let r = a; r <= b; r++) {
      const from = runs[2 * r]!;
      const to = runs[2 * r + 1]!;
      const [bare, named] = marker(from, to, to - from + 1);
      // Judged without the handle: compress() keeps it on one marker only (nameHandleOnce).
      if (markerPays(bare, lines, from, to)) out.push(named);
      else for (let k = from; k <= to; k++) out.push(lines[k]!);
      const next = r + 1 < runs.length / 2 ? runs[2 * r + 2]! : lines.length;
      for (let k = to + 1; k < next; k++) out.push(lines[k]!);
    }
  };
  for (let k = 0; k < (runs.length > 0 ? runs[0]! : lines.length); k++) out.push(lines[k]!);
  const total = runs.length / 2;
  const anchors = opts.anchors;
  /** True when a kept line in [from, to] is one marker facts name. */
  const anchored = (from: number, to: number) => {
    if (!anchors || anchors.size === 0) return false;
    for (let k = from; k <= to; k++) if (anchors.has(k)) return true;
    return false;
  };
  for (let r = 0; r < total; ) {
    let s = r;
    while (
      s + 1 < total &&
      runs[2 * s + 2]! - runs[2 * s + 1]! - 1 <= gap &&
      !anchored(runs[2 * s + 1]! + 1, runs[2 * s + 2]! - 1)
    )
      s++;
    if (s === r) {
      perRun(r, r);
      r++;
      continue;
    }
    const from = runs[2 * r]!;
    const to = runs[2 * s + 1]!;
    const dropped: string[] = [];
    for (let q = r; q <= s; q++)
      for (let k = runs[2 * q]!; k <= runs[2 * q + 1]!; k++) dropped.push(lines[k]!);
    const [bare, named] = marker(from, to, dropped.length);
    if (paysFor(bare, dropped)) {
      out.push(named);
      for (let k = from; k <= to; k++) if (keep[k]) out.push(lines[k]!);
      const next = s + 1 < total ? runs[2 * s + 2]! : lines.length;
      for (let k = to + 1; k < next; k++) out.push(lines[k]!);
    } else perRun(r, s);
    r = s + 1;
  }
  return out.join("\n");
}

/** Count of dropped lines. */
export function droppedCount(keep: ArrayLike<boolean | number>, length: number): number {
  let n = 0;
  for (let i = 0; i < length; i++) if (!keep[i]) n++;
  return n;
}

/** "a x3, b x1, 2 others x4" from counts, largest first, at most `max` listed; sums stay exact. */
export function countList(counts: Map<string, number>, max = 3): string {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const parts = sorted.slice(0, max).map(([k, c]) => `${k} x${c}`);
  const rest = sorted.slice(max);
  if (rest.length > 0) parts.push(`${rest.length} others x${rest.reduce((s, [, c]) => s + c, 0)}`);
  return parts.join(", ");
}
