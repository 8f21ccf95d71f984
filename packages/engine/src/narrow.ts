// narrow(): the view a retrieve with a query returns. Structural queries (`lines:120-180`, JSON
// pointers `/items/42`) return exactly that slice of the original. Other queries rank whole units
// with BM25 (narrow/rank.ts) and show the top `limit` in original order, each needed header once,
// with a gap marker wherever units were skipped. Code and plain text are ranked by line and shown
// as windows of lines around each match; a single long line, by 1,000-character slices; so any
// content narrows. Only a view that would not be smaller gives the full original (`full: true`,
// with a note). Memory stays a small multiple of the original. Never throws.
import { detectWithValue } from "./detect.js";
import { messageOf } from "./errors.js";
import { formatMarker, lineSpan } from "./markers.js";
import { resolvePointer } from "./narrow/pointer.js";
import { queryWords, rankUnits } from "./narrow/rank.js";
import { jsonUnits, textUnits, type Unit } from "./narrow/units.js";
import { parseSpans } from "./shared/spans.js";
import type { NarrowOptions, NarrowResult } from "./types.js";

/** Default number of units a narrowed view shows. */
const DEFAULT_NARROW_LIMIT = 20;

function full(original: string, unitsTotal: number, note: string): NarrowResult {
  return { output: original, full: true, unitsTotal, unitsShown: unitsTotal, note };
}

/**
 * A line-span query: `lines:12-80`, `line:7`, `lines 12-80`, `L12-80`, or a marker line pasted
 * whole (`[caveman: lines 12-80 elided; ...]`, whose span is what it elided).
 */
const LINES_QUERY = /^(?:lines?\s*:?\s*|l)(\d+)(?:\s*-\s*(\d+))?$/i;
// The run form `lines a-b elided`, the region form `N of lines a-b elided`, and the long form
// `N units elided (lines a-b)` of earlier versions.
const MARKER_SPAN =
  /^\s*"?\[caveman: (?:(?:\d+ of )?lines? (\d+)(?:-(\d+))? |\d+ \w+ \w+ \(lines? (\d+)(?:-(\d+))?\))/;

function linesQuery(original: string, query: string): NarrowResult | undefined {
  const q = query.trim();
  let m = LINES_QUERY.exec(q);
  const marker = m ? null : MARKER_SPAN.exec(q);
  if (marker) m = marker[1] ? marker : ([q, marker[3], marker[4]] as unknown as RegExpExecArray);
  if (!m) return undefined;
  const lines = original.split("\n");
  const from = Number(m[1]);
  const to = Math.min(Number(m[2] ?? m[1]), lines.length);
  if (from < 1 || from > lines.length || to < from)
    return full(original, lines.length, `${q} is outside lines 1-${lines.length}`);
  return {
    output: lines.slice(from - 1, to).join("\n"),
    full: false,
    unitsTotal: lines.length,
    unitsShown: to - from + 1,
  };
}

/** Lines shown on each side of a matching line of code or text. */
const WINDOW = 3;
/** Slice size for content that is one long line. */
const SLICE = 1_000;

/** Code and text: matching lines with WINDOW lines around each, gap markers between. */
function lineWindows(original: string, query: string, limit: number): NarrowResult {
  const lines = original.split("\n");
  const units: Unit[] = lines.map((text, i) => ({ text, first: i + 1, last: i + 1 }));
  const chosen = rankUnits(units, query, limit);
  if (chosen.length === 0) return noMatch(units, "line", query);
  const show = new Uint8Array(lines.length);
  for (const c of chosen)
    for (let i = Math.max(0, c - WINDOW); i <= Math.min(lines.length - 1, c + WINDOW); i++) show[i] = 1;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (show[i]) {
      out.push(lines[i]!);
      continue;
    }
    let j = i;
    while (j + 1 < lines.length && !show[j + 1]) j++;
    out.push(
      formatMarker({ count: j - i + 1, unit: "line", verb: "skipped", where: lineSpan(i + 1, j + 1) }),
    );
    i = j;
  }
  return { output: out.join("\n"), full: false, unitsTotal: lines.length, unitsShown: chosen.length };
}

/** One long line: the matching 1,000-character slices, gap markers naming skipped characters. */
function charSlices(original: string, query: string, limit: number): NarrowResult {
  const units: Unit[] = [];
  for (let at = 0; at < original.length; at += SLICE)
    units.push({
      text: original.slice(at, at + SLICE),
      first: at + 1,
      last: Math.min(original.length, at + SLICE),
    });
  const chosen = new Set(rankUnits(units, query, limit));
  if (chosen.size === 0) return noMatch(units, "character", query);
  const out: string[] = [];
  let gap: Unit[] = [];
  const flush = () => {
    if (gap.length === 0) return;
    const from = gap[0]!.first;
    const to = gap[gap.length - 1]!.last;
    out.push(
      formatMarker({
        count: to - from + 1,
        unit: "character",
        verb: "skipped",
        where: `characters ${from}-${to}`,
      }),
    );
    gap = [];
  };
  units.forEach((u, id) => {
    if (!chosen.has(id)) gap.push(u);
    else {
      flush();
      out.push(u.text);
    }
  });
  flush();
  return { output: out.join("\n"), full: false, unitsTotal: units.length, unitsShown: chosen.size };
}

function noMatch(units: readonly Unit[], unitName: string, query: string): NarrowResult {
  const first = units[0]!.first;
  const last = units[units.length - 1]!.last;
  const output = formatMarker({
    count: units.length,
    unit: unitName,
    verb: "skipped",
    where: unitName === "character" ? `characters ${first}-${last}` : lineSpan(first, last),
    // Ranking reads words only: of a query like "->" nothing can be said to match or not.
    facts: [queryWords(query).length === 0 ? "the query has no word to match" : "none matched the query"],
  });
  return { output, full: false, unitsTotal: units.length, unitsShown: 0, note: "no unit matched the query" };
}

function render(units: readonly Unit[], chosen: number[], unitName: string): string {
  const show = new Set(chosen);
  for (const id of chosen) {
    const ctx = units[id]!.context;
    if (ctx !== undefined) show.add(ctx);
  }
  const out: string[] = [];
  let gap: Unit[] = [];
  const flush = () => {
    if (gap.length === 0) return;
    out.push(
      formatMarker({
        count: gap.length,
        unit: unitName,
        verb: "skipped",
        where: lineSpan(gap[0]!.first, gap[gap.length - 1]!.last),
      }),
    );
    gap = [];
  };
  units.forEach((u, id) => {
    if (show.has(id)) {
      flush();
      out.push(u.text);
    } else gap.push(u);
  });
  flush();
  return out.join("\n");
}

/** A narrowed view of `original` for `query`: whole units with gap markers, or the full original. */
export function narrow(original: string, query: string, options: NarrowOptions = {}): NarrowResult {
  try {
    const q = String(query ?? "").trim();
    if (q === "") return full(original, 1, "empty query: full original");
    const byLines = linesQuery(original, q);
    if (byLines) return byLines;
    const detection = detectWithValue(original, options.hint);
    const asked = Number(options.limit ?? DEFAULT_NARROW_LIMIT);
    const limit = Number.isFinite(asked) ? Math.max(1, Math.floor(asked)) : DEFAULT_NARROW_LIMIT;
    const smaller = (view: NarrowResult, total: number) =>
      view.output.length >= original.length
        ? full(original, total, "the narrowed view would not be smaller")
        : view;
    if (!original.includes("\n") && detection.kind !== "json") {
      const view = charSlices(original, q, limit);
      return smaller(view, view.unitsTotal);
    }
    if (detection.kind === "code" || detection.kind === "text") {
      const view = lineWindows(original, q, limit);
      return smaller(view, view.unitsTotal);
    }
    let units: Unit[];
    let unitName = "unit";
    if (detection.kind === "json" && "value" in detection) {
      const root = parseSpans(original);
      if (q.startsWith("/") || q === "") {
        const node = resolvePointer(root, q);
        if (!node) return full(original, 1, `JSON pointer ${q} does not resolve`);
        return { output: original.slice(node.s, node.e), full: false, unitsTotal: 1, unitsShown: 1 };
      }
      units = jsonUnits(original, root);
      unitName = "record";
    } else {
      units = textUnits(original, detection.kind);
      unitName = detection.kind === "table" || detection.kind === "grep" ? "row" : "unit";
    }
    // One record, one paragraph: rank its lines instead of returning it whole.
    if (units.length < 2) {
      const view = original.includes("\n") ? lineWindows(original, q, limit) : charSlices(original, q, limit);
      return smaller(view, view.unitsTotal);
    }
    const chosen = rankUnits(units, q, limit);
    if (chosen.length === 0) return noMatch(units, unitName, q);
    const view = {
      output: render(units, chosen, unitName),
      full: false,
      unitsTotal: units.length,
      unitsShown: chosen.length,
    };
    return smaller(view, units.length);
  } catch (error) {
    return full(String(original ?? ""), 1, `narrowing failed, full original returned (${messageOf(error)})`);
  }
}
