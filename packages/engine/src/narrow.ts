// narrow(): the view a retrieve with a query returns, as cheap as the grep an agent would run.
// A search (text, words, `/regex/`) lists the matching lines with their numbers and a line of
// context, like `grep -n -C1` (narrow/view.ts), inside `budget` tokens, then one marker naming
// the matches not shown and the query that pages on. Structural queries (`lines:a-b`, a pasted
// marker, a JSON pointer) return exactly that slice, held to the same budget (narrow/slice.ts).
// `page:N` returns page N of the original in pieces of `pageTokens` (narrow/page.ts), which
// concatenate to it byte for byte. The full original comes back only when it fits the budget
// and a view would not be smaller (`full: true`, with a note). Never throws, never makes up a line.
import { detectWithValue } from "./detect.js";
import { messageOf } from "./errors.js";
import { formatMarker, lineSpan } from "./markers.js";
import { contextFor } from "./narrow/context.js";
import { matchLines } from "./narrow/match.js";
import { pageOf } from "./narrow/page.js";
import { pointerAt, pointerMiss, resolvePointer } from "./narrow/pointer.js";
import { parseQuery, type SearchQuery } from "./narrow/query.js";
import { queryWords } from "./narrow/rank.js";
import { sliceView } from "./narrow/slice.js";
import { grepView } from "./narrow/view.js";
import { type JNode, parseSpans } from "./shared/spans.js";
import { measureTokens } from "./tokens.js";
import type { ContentKind, NarrowOptions, NarrowResult } from "./types.js";

/** Tokens a view may cost unless the caller says otherwise. */
export const DEFAULT_NARROW_BUDGET = 400;
/** The smallest budget a view gets: room for a line, its context and the "more" marker. */
const MIN_NARROW_BUDGET = 100;
/** Tokens per page of `page:N` unless the caller says otherwise (under a 25,000-token host limit). */
export const DEFAULT_PAGE_TOKENS = 16_000;
/** Matching lines on one page of a search unless the caller says otherwise. */
const DEFAULT_NARROW_LIMIT = 20;

interface Settings {
  budget: number;
  pageTokens: number;
  limit: number;
}

function settings(options: NarrowOptions): Settings {
  const num = (v: unknown, dflt: number, min: number) => {
    const n = Number(v ?? dflt);
    if (n === Number.POSITIVE_INFINITY) return n;
    return Number.isFinite(n) ? Math.max(min, Math.floor(n)) : dflt;
  };
  return {
    budget: num(options.budget, DEFAULT_NARROW_BUDGET, MIN_NARROW_BUDGET),
    pageTokens: num(options.pageTokens, DEFAULT_PAGE_TOKENS, 1),
    limit: num(options.limit, DEFAULT_NARROW_LIMIT, 1),
  };
}

function full(original: string, lines: number, note: string): NarrowResult {
  return { output: original, full: true, unitsTotal: lines, unitsShown: lines, matches: lines, note };
}

/** A view that is one marker: nothing matched, or nothing is there (the marker says which). */
function only(marker: string, lines: number): NarrowResult {
  return { output: marker, full: false, unitsTotal: lines, unitsShown: 0, matches: 0 };
}

function page(original: string, n: number, s: Settings): NarrowResult {
  const p = pageOf(original, n, s.pageTokens);
  if (!p.ok)
    return only(
      formatMarker({ count: p.pages, unit: "page", verb: "skipped", facts: [`no page ${n}`] }),
      p.pages,
    );
  const where = `page ${p.page} of ${p.pages} (${lineSpan(p.firstLine, p.lastLine)})`;
  const note = p.page < p.pages ? `${where}; next: "page:${p.page + 1}"` : where;
  const lines = p.lastLine - p.firstLine + 1;
  if (p.pages === 1) return { ...full(original, lines, note), unitsTotal: 1, unitsShown: 1 };
  return { output: p.text, full: false, unitsTotal: p.pages, unitsShown: 1, matches: lines, note };
}

/** Offset of the start of each line, and the original's length + 1 at the end. */
function lineStarts(lines: readonly string[]): number[] {
  const starts = [0];
  for (const line of lines) starts.push(starts[starts.length - 1]! + line.length + 1);
  return starts;
}

function span(
  original: string,
  lines: readonly string[],
  from: number,
  to: number,
  s: Settings,
): NarrowResult {
  const n = lines.length;
  if (from < 1 || from > n || to < from)
    return only(
      formatMarker({
        count: n,
        unit: "line",
        verb: "skipped",
        facts: [`${lineSpan(from, to)} is outside lines 1-${n}`],
      }),
      n,
    );
  const last = Math.min(to, n);
  const starts = lineStarts(lines);
  const view = sliceView({
    original,
    start: starts[from - 1]!,
    end: starts[last]! - 1,
    line: from,
    budget: s.budget,
    pageTokens: s.pageTokens,
  });
  const shown = view.cut ? view.output.split("\n").length - 1 : last - from + 1;
  return { output: view.output, full: false, unitsTotal: n, unitsShown: shown, matches: last - from + 1 };
}

interface SearchIn {
  lines: readonly string[];
  query: SearchQuery;
  kind: ContentKind;
  /** The span tree of a JSON original. */
  root?: JNode;
  /** A JSON pointer that did not resolve: only its text is searched for. */
  miss?: string;
}

function search(original: string, input: SearchIn, s: Settings): NarrowResult {
  const { lines, query: q, root } = input;
  const shown = lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const matches = matchLines(shown, q.text, q.regex);
  const n = lines.length;
  if (input.miss !== undefined && matches.mode !== "text") matches.hits = [];
  if (matches.hits.length === 0) {
    const why =
      queryWords(q.text).length === 0 && !q.regex
        ? "the query has no word to match"
        : "none matched the query";
    const facts = [input.miss ?? why, ...(matches.fact && input.miss === undefined ? [matches.fact] : [])];
    const marker = formatMarker({ count: n, unit: "line", verb: "skipped", where: lineSpan(1, n), facts });
    return only(marker, n);
  }
  let where: ((line: number, column: number) => string | undefined) | undefined;
  if (root) {
    const starts = lineStarts(lines);
    where = (line, column) => `at ${pointerAt(root, starts[line]! + column) || "the root"}`;
  }
  const view = grepView({
    lines: shown,
    matches,
    context: contextFor(shown, input.kind),
    query: q.text,
    page: q.page,
    budget: s.budget,
    limit: s.limit,
    ...(where ? { where } : {}),
  });
  if (view.output.length >= original.length && measureTokens(original).tokens <= s.budget)
    return full(original, n, "the narrowed view would not be smaller");
  return { output: view.output, full: false, unitsTotal: n, unitsShown: view.shown, matches: view.matches };
}

/** The view of `original` that `query` asks for, held to the budget (see the module comment). */
export function narrow(original: string, query: string, options: NarrowOptions = {}): NarrowResult {
  const text = typeof original === "string" ? original : String(original ?? "");
  try {
    const s = settings(options);
    const q = String(query ?? "").trim();
    if (q === "") return page(text, 1, s);
    const parsed = parseQuery(q);
    if (parsed.form === "page") return page(text, parsed.page, s);
    const lines = text.split("\n");
    if (parsed.form === "lines") return span(text, lines, parsed.from, parsed.to, s);
    const detection = detectWithValue(text, options.hint);
    const root = detection.kind === "json" && "value" in detection ? parseSpans(text) : undefined;
    let miss: string | undefined;
    if (root && q.startsWith("/")) {
      const node = resolvePointer(root, q);
      if (node) {
        const starts = lineStarts(lines);
        let line = 1;
        while (line < lines.length && starts[line]! <= node.s) line++;
        const view = sliceView({ original: text, start: node.s, end: node.e, line, ...s });
        return { output: view.output, full: false, unitsTotal: 1, unitsShown: 1, matches: 1 };
      }
      if (!parsed.regex) miss = pointerMiss(root, q);
    }
    return search(
      text,
      { lines, query: parsed, kind: detection.kind, ...(root ? { root } : {}), ...(miss ? { miss } : {}) },
      s,
    );
  } catch (error) {
    // Never the whole original here: it may be far over any budget. The pages still work.
    const why = `narrowing failed (${messageOf(error)})`;
    return only(
      formatMarker({ count: 1, unit: "view", verb: "skipped", facts: [why, 'the original: "page:1"'] }),
      1,
    );
  }
}
