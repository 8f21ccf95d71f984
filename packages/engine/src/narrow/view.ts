// The grep-like view of a search: `<line>:<text>` for a matching line, `<line>-<text>` for
// context, `--` between groups, as `grep -n -C1` prints them, inside a token budget, then one
// marker naming how many matches are not shown, where they are, and the query that pages on.
// Hits are taken in priority order (line order; rank order for a ranked search) while they fit;
// pages continue where the previous page stopped, so page N is the same whenever it is asked.
// A line longer than LONG_LINE characters is shown as a window around its match (its head when
// it is context), followed by a marker saying which characters are not shown.
import { formatMarker, lineSpan } from "../markers.js";
import { measureTokens } from "../tokens.js";
import { tick } from "../work.js";
import type { ContextOf } from "./context.js";
import { COUNT_MAX, type Matches } from "./match.js";
import { pagedQuery } from "./query.js";

/** Lines longer than this many characters are shown in part. */
const LONG_LINE = 320;
/** Characters of a long line shown, from a quarter of that before its match. */
const WINDOW = 240;
/** A query longer than this is not repeated in the "more" marker. */
const ECHO_MAX = 60;
/** Tokens a `--` separator costs. */
const SEPARATOR = 2;

export interface ViewInput {
  lines: readonly string[];
  matches: Matches;
  context: ContextOf;
  /** The search as written (without its page suffix), for the "more" marker. */
  query: string;
  page: number;
  budget: number;
  limit: number;
  /** Where a match sits, for a cut line's marker (a JSON pointer: `at /items/7/name`). */
  where?: (line: number, column: number) => string | undefined;
}

export interface View {
  output: string;
  /** Matching lines shown on this page. */
  shown: number;
  /** Matching lines in all. */
  matches: number;
}

interface Shown {
  /** The text shown for the line, and the cut marker after it, if any. */
  text: string;
  cut?: string;
}

/**
 * A long line's shown part: `width` characters starting a little before the match (or its head).
 * Lines up to LONG_LINE characters are shown whole unless a narrower width is asked.
 */
function cutLine(
  line: string,
  found: { at: number; count: number } | undefined,
  n: number,
  width: number,
  where?: (line: number, column: number) => string | undefined,
): Shown {
  if (line.length <= (width < WINDOW ? width : LONG_LINE)) return { text: line };
  const at = found?.at ?? -1;
  let from = at < 0 ? 0 : Math.max(0, Math.min(at - Math.floor(width / 4), line.length - width));
  let to = from + width;
  const code = (i: number) => line.charCodeAt(i);
  if (from > 0 && code(from) >= 0xdc00 && code(from) <= 0xdfff) from++;
  if (code(to - 1) >= 0xd800 && code(to - 1) <= 0xdbff) to--;
  const cut = formatMarker({
    count: line.length - (to - from),
    unit: "character",
    verb: "skipped",
    where: `${lineSpan(n, n)} shows ${from + 1}-${to} of ${line.length}`,
    facts: [
      found && found.count > 1
        ? `${found.count >= COUNT_MAX ? `${COUNT_MAX}+` : found.count} matches in the line`
        : "",
      at >= 0 && where ? (where(n - 1, at) ?? "") : "",
    ],
  });
  return { text: line.slice(from, to), cut };
}

/** The marker naming `count` matches not shown, between lines `first` and `last` (0-based). */
function moreMarker(count: number, first: number, last: number, input: ViewInput, fact?: string): string {
  const { query, page } = input;
  const next =
    query.length <= ECHO_MAX
      ? JSON.stringify(pagedQuery(query, page + 1))
      : `this query + " page:${page + 1}"`;
  return formatMarker({
    count,
    unit: "match",
    verb: "skipped",
    where: lineSpan(first + 1, last + 1),
    facts: [...(fact ? [fact] : []), `next: ${next}`],
  });
}

class Layout {
  readonly #input: ViewInput;
  readonly #isHit: Uint8Array;
  readonly #cost = new Map<number, number>();
  readonly #shown = new Map<number, Shown>();
  readonly #width = new Map<number, number>();
  constructor(input: ViewInput) {
    this.#input = input;
    this.#isHit = new Uint8Array(input.lines.length);
    for (const h of input.matches.hits) this.#isHit[h] = 1;
  }

  /** Narrows line `i` to `width` characters (for a lone hit over the budget). */
  narrow(i: number, width: number): void {
    this.#width.set(i, width);
    this.#shown.delete(i);
    this.#cost.delete(i);
  }

  #display(i: number): Shown {
    let s = this.#shown.get(i);
    if (!s) {
      const line = this.#input.lines[i]!;
      const width = this.#width.get(i) ?? WINDOW;
      const long = line.length > Math.min(width, LONG_LINE) && this.#isHit[i];
      s = cutLine(line, long ? this.#input.matches.locate(line) : undefined, i + 1, width, this.#input.where);
      this.#shown.set(i, s);
    }
    return s;
  }

  #prefix(i: number): string {
    return `${i + 1}${this.#isHit[i] ? ":" : "-"}`;
  }

  /** Tokens line `i` costs in the view, its cut marker included. */
  cost(i: number): number {
    let c = this.#cost.get(i);
    if (c === undefined) {
      const s = this.#display(i);
      c = measureTokens(`${this.#prefix(i)}${s.text}\n${s.cut ? `${s.cut}\n` : ""}`).tokens;
      this.#cost.set(i, c);
    }
    return c;
  }

  /**
   * The hits of the page that starts at `from` (an index into the hit list), at most `max` of
   * them: how many were taken, and the lines shown. A hit whose context does not fit is shown
   * alone when it does.
   */
  pick(from: number, available: number, max: number): { taken: number; lines: Set<number> } {
    const { matches, context } = this.#input;
    const lines = new Set<number>();
    let used = 0;
    let taken = 0;
    for (let k = from; k < matches.hits.length && taken < max; k++) {
      const h = matches.hits[k]!;
      const add = [h, ...context(h)].filter((i) => !lines.has(i));
      const apart = !lines.has(h - 1) && !lines.has(h + 1) && !lines.has(h);
      let cost = apart ? SEPARATOR : 0;
      for (const i of add) cost += this.cost(i);
      if (used + cost > available) {
        // Shown already, as another hit's context: taken, without context of its own.
        if (lines.has(h)) {
          taken++;
          continue;
        }
        const alone = this.cost(h) + (apart ? SEPARATOR : 0);
        if (taken > 0 && used + alone > available) break;
        lines.add(h);
        used += alone;
      } else {
        for (const i of add) lines.add(i);
        used += cost;
      }
      taken++;
      tick(add.length);
    }
    return { taken, lines };
  }

  render(lines: ReadonlySet<number>): string[] {
    const out: string[] = [];
    let prev = -2;
    for (const i of [...lines].sort((a, b) => a - b)) {
      if (prev >= 0 && i > prev + 1) out.push("--");
      const s = this.#display(i);
      out.push(`${this.#prefix(i)}${s.text}`);
      if (s.cut) out.push(s.cut);
      prev = i;
    }
    return out;
  }
}

/** The budgeted grep view of a search with at least one hit. */
export function grepView(input: ViewInput): View {
  const { matches, page, budget, limit } = input;
  const hits = matches.hits;
  const total = hits.length;
  const layout = new Layout(input);
  const last = input.lines.length - 1;
  const reserve = measureTokens(`${moreMarker(total, last, last, input, matches.fact)}\n`).tokens;
  const available = budget - reserve;
  let from = 0;
  let pick = layout.pick(0, available, limit);
  let at = 1;
  for (; at < page && from + pick.taken < total; at++) {
    // The next page starts at the first hit this one did not show.
    from += pick.taken;
    while (from < total && pick.lines.has(hits[from]!)) from++;
    if (from >= total) break;
    pick = layout.pick(from, available, limit);
  }
  if (at < page)
    return {
      output: formatMarker({
        count: total,
        unit: "match",
        verb: "shown",
        facts: [`page ${page} is past the last page of them (${at})`],
      }),
      shown: 0,
      matches: total,
    };
  const finish = (chosen: ReadonlySet<number>, taken: number): string => {
    const out = layout.render(chosen);
    const left = hits.slice(from + taken).filter((h) => !chosen.has(h));
    if (left.length > 0) {
      let first = left[0]!;
      let end = first;
      for (const h of left) {
        first = Math.min(first, h);
        end = Math.max(end, h);
      }
      out.push(moreMarker(left.length, first, end, input, matches.fact));
    } else if (matches.fact)
      out.push(formatMarker({ count: total, unit: "match", verb: "shown", facts: [matches.fact] }));
    return out.join("\n");
  };
  // Line costs add up to about the view's cost: measure it, give back hits until it fits, and
  // show less of a lone hit's line until it does.
  let { taken, lines: chosen } = pick;
  let width = WINDOW;
  for (;;) {
    const output = finish(chosen, taken);
    const h = hits[from]!;
    const over = measureTokens(output).tokens > budget;
    const narrower = Math.floor(Math.min(width, input.lines[h]!.length) / 2);
    if (over && taken > 1) chosen = layout.pick(from, available, --taken).lines;
    else if (over && chosen.size > 1) chosen = new Set([h]);
    else if (over && narrower >= 16) {
      width = narrower;
      layout.narrow(h, width);
    } else {
      let shown = 0;
      for (const k of hits) if (chosen.has(k)) shown++;
      return { output, shown, matches: total };
    }
  }
}
