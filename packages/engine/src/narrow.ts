// narrow(): the view a retrieve with a query returns. Structural queries (`lines:120-180`, JSON
// pointers `/items/42`) return exactly that slice of the original. Other queries rank whole units
// with BM25 (minisearch) and show the top `limit` in original order, each needed header once, with
// a gap marker wherever units were skipped. When the view would not be smaller or the content
// cannot be split, the full original comes back with `full: true` and a note. Never throws.
import MiniSearch from "minisearch";
import { detectWithValue } from "./detect.js";
import { messageOf } from "./errors.js";
import { parseSpans } from "./json/spans.js";
import { formatMarker, lineSpan } from "./markers.js";
import { resolvePointer } from "./narrow/pointer.js";
import { jsonUnits, textUnits, type Unit } from "./narrow/units.js";
import type { NarrowOptions, NarrowResult } from "./types.js";

/** Default number of units a narrowed view shows. */
export const DEFAULT_NARROW_LIMIT = 20;

function full(original: string, unitsTotal: number, note: string): NarrowResult {
  return { output: original, full: true, unitsTotal, unitsShown: unitsTotal, note };
}

/**
 * A line-span query: `lines:12-80`, `line:7`, `lines 12-80`, `L12-80`, or a marker line pasted
 * whole (`[caveman: lines 12-80 elided; ...]`, whose span is what it elided).
 */
const LINES_QUERY = /^(?:lines?\s*:?\s*|l)(\d+)(?:\s*-\s*(\d+))?$/i;
const MARKER_SPAN = /^\s*"?\[caveman: (?:lines? (\d+)(?:-(\d+))? |\d+ \w+ \w+ \(lines? (\d+)(?:-(\d+))?\))/;

function linesQuery(original: string, query: string): NarrowResult | undefined {
  const q = query.trim();
  let m = LINES_QUERY.exec(q);
  const marker = m ? null : MARKER_SPAN.exec(q);
  if (marker) m = marker[1] ? marker : ([q, marker[3], marker[4]] as unknown as RegExpExecArray);
  if (!m) return undefined;
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

function rank(units: readonly Unit[], query: string, limit: number): number[] {
  const search = new MiniSearch<{ id: number; text: string }>({ fields: ["text"], idField: "id" });
  search.addAll(units.map((u, id) => ({ id, text: u.text })).filter((_, id) => !units[id]!.header));
  const hits = search.search(query, { prefix: true, combineWith: "OR" });
  return hits
    .map((h) => ({ id: h.id as number, score: h.score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit)
    .map((h) => h.id);
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
    if (units.length < 2) return full(original, units.length, "content cannot be split into units");
    const asked = Number(options.limit ?? DEFAULT_NARROW_LIMIT);
    const limit = Number.isFinite(asked) ? Math.max(1, Math.floor(asked)) : DEFAULT_NARROW_LIMIT;
    const chosen = rank(units, q, limit);
    if (chosen.length === 0) {
      const output = formatMarker({
        count: units.length,
        unit: unitName,
        verb: "skipped",
        where: lineSpan(units[0]!.first, units[units.length - 1]!.last),
        facts: ["none matched the query"],
      });
      return {
        output,
        full: false,
        unitsTotal: units.length,
        unitsShown: 0,
        note: "no unit matched the query",
      };
    }
    const output = render(units, chosen, unitName);
    if (output.length >= original.length)
      return full(original, units.length, "the narrowed view would not be smaller");
    return { output, full: false, unitsTotal: units.length, unitsShown: chosen.length };
  } catch (error) {
    return full(String(original ?? ""), 1, `narrowing failed, full original returned (${messageOf(error)})`);
  }
}
