// Line-level rendering shared by the line-based compressors: keep a set of original lines and
// replace every maximal run of dropped lines with one marker whose facts come from exactly that
// run. Line numbers in markers are 1-based lines of the input, as `narrow("lines:a-b")` takes them.
import { formatMarker, isMarkerLine, lineSpan } from "./markers.js";
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

/** Splits into lines on "\n"; a "\r" before it stays part of the line. */
export function splitLines(text: string): string[] {
  return text.split("\n");
}

/** Facts for a dropped run [from, to] (0-based inclusive line indices). */
export type RunFacts = (from: number, to: number) => readonly string[];

export interface RenderOptions {
  /** Singular unit name in markers (default "line"). */
  unit?: string;
  handle?: string;
  facts?: RunFacts;
  /** Indentation to give a marker, from the first dropped line (default none). */
  indent?: (from: number) => string;
}

/** A marker must stand for at least this many times its own tokens, else the lines stay. */
export const MARKER_PAYBACK = 2;

/**
 * True when the lines a marker would replace cost at least MARKER_PAYBACK times the marker's
 * tokens. Exact counts only for short runs (a run many times the marker's length always pays),
 * so the check stays cheap.
 */
export function markerPays(marker: string, lines: readonly string[], from: number, to: number): boolean {
  const bar = MARKER_PAYBACK * marker.length;
  let chars = 0;
  for (let i = from; i <= to && chars <= bar * 3; i++) chars += lines[i]!.length + 1;
  if (chars > bar * 3) return true;
  if (chars <= marker.length) return false;
  return countTokens(lines.slice(from, to + 1).join("\n")) >= MARKER_PAYBACK * countTokens(marker);
}

/** One group covering the whole run needs no count: the span says it (`context x3` -> `context`). */
function impliedCount(facts: readonly string[], count: number): readonly string[] {
  if (facts.length !== 1) return facts;
  const m = /^([^,]*) x(\d+)$/.exec(facts[0]!);
  return m && Number(m[2]) === count ? [m[1]!] : facts;
}

/**
 * Joins kept lines and one marker per dropped run. `keep[i]` true keeps line i. A run whose
 * marker would not pay for itself (markerPays) is written verbatim instead.
 */
export function renderKept(
  lines: readonly string[],
  keep: ArrayLike<boolean | number>,
  opts: RenderOptions = {},
): string {
  const out: string[] = [];
  tick(lines.length);
  let i = 0;
  while (i < lines.length) {
    if (keep[i]) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < lines.length && !keep[j + 1]) j++;
    const spec = {
      count: j - i + 1,
      unit: opts.unit ?? "line",
      where: lineSpan(i + 1, j + 1),
      facts: opts.facts ? impliedCount(opts.facts(i, j), j - i + 1) : [],
    };
    const indent = opts.indent ? opts.indent(i) : "";
    // Judged without the handle: compress() keeps it on one marker only (nameHandleOnce).
    if (markerPays(indent + formatMarker(spec), lines, i, j)) {
      out.push(indent + formatMarker(opts.handle ? { ...spec, handle: opts.handle } : spec));
    } else for (let k = i; k <= j; k++) out.push(lines[k]!);
    i = j + 1;
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
