// Which lines of an original a search matches, tried the way people mean a query: the text as
// written (case-insensitive, across lines when the query has several), then a pasted view's
// text, then lines holding every word of it, then the lines BM25 ranks best among those holding
// at least half the words of one of its lines, or a word few lines hold. A `/regex/` runs on
// RE2JS, whose matching is linear in the line's length whatever the pattern (a backtracking
// engine takes exponential time on `(a+)+$`); a pattern RE2 cannot run (lookaround,
// backreferences) is searched as text and the result says so.
import { RE2JS } from "re2js";
import { tick } from "../work.js";
import { unpasteView } from "./query.js";
import { queryWords, rankUnits } from "./rank.js";

type MatchMode = "text" | "words" | "ranked" | "regex";

/** The matching lines of a search, in priority order (line order, or rank for `ranked`). */
export interface Matches {
  mode: MatchMode;
  /** 0-based line indices; every line of a multi-line occurrence is a hit. */
  hits: number[];
  /** Where in a hit line the first match starts (-1 when unknown), and how many it holds (up to COUNT_MAX). */
  locate: (line: string) => { at: number; count: number };
  /** Said in the view when the search is not what was written (regex refused, words only). */
  fact?: string;
}

/** Lines ranked for a query that no line holds as written or word for word. */
const RANKED_MAX = 200;
/** A word at most this many lines hold (a search's default page) lets a line be ranked alone. */
const RARE_LINES = 20;
/** Matches counted in one long line. */
export const COUNT_MAX = 1000;

function textHits(lower: readonly string[], query: string): number[] {
  const parts = query
    .toLowerCase()
    .split("\n")
    .map((p) => p.trim());
  const hits: number[] = [];
  const first = parts[0]!;
  for (let i = 0; i + parts.length <= lower.length; i++) {
    if (!lower[i]!.includes(first)) continue;
    let all = true;
    for (let k = 1; k < parts.length && all; k++) all = lower[i + k]!.includes(parts[k]!);
    if (!all) continue;
    for (let k = 0; k < parts.length; k++) if (hits[hits.length - 1] !== i + k) hits.push(i + k);
  }
  return hits;
}

function wordHits(lower: readonly string[], words: readonly string[]): number[] {
  const hits: number[] = [];
  for (let i = 0; i < lower.length; i++) if (words.every((w) => lower[i]!.includes(w))) hits.push(i);
  return hits;
}

function firstOf(needles: readonly string[]): Matches["locate"] {
  return (line) => {
    const l = line.toLowerCase();
    let at = -1;
    for (const n of needles) {
      const i = l.indexOf(n);
      if (i >= 0 && (at < 0 || i < at)) at = i;
    }
    let count = 0;
    const first = needles[0] ?? "";
    if (first !== "")
      for (let i = l.indexOf(first); i >= 0 && count < COUNT_MAX; i = l.indexOf(first, i + first.length))
        count++;
    return { at, count: Math.max(count, at >= 0 ? 1 : 0) };
  };
}

function compile(source: string, flags: string): RE2JS | string {
  let f = 0;
  if (flags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("m")) f |= RE2JS.MULTILINE;
  if (flags.includes("s")) f |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(source, f);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function regexMatches(lines: readonly string[], source: string, flags: string): Matches | string {
  const re = compile(source, flags);
  if (typeof re === "string") return re;
  const hits: number[] = [];
  for (let i = 0; i < lines.length; i++) if (re.matcher(lines[i]!).find()) hits.push(i);
  return {
    mode: "regex",
    hits,
    locate: (line) => {
      const m = re.matcher(line);
      let at = -1;
      let count = 0;
      let from = 0;
      while (count < COUNT_MAX && from <= line.length && m.find(from)) {
        if (at < 0) at = m.start();
        count++;
        from = Math.max(m.end(), m.start() + 1);
      }
      return { at, count };
    },
  };
}

/** The lines of `lines` that `query` matches (a search query's text, or its regex). */
export function matchLines(
  lines: readonly string[],
  query: string,
  regex?: { source: string; flags: string },
): Matches {
  tick(lines.length);
  let refused: string | undefined;
  if (regex) {
    const found = regexMatches(lines, regex.source, regex.flags);
    if (typeof found !== "string") return found;
    refused = `not a regex this search runs (${found.split("\n")[0]!.slice(0, 80)}); searched as text`;
  }
  const withFact = (m: Matches): Matches => (refused ? { ...m, fact: refused } : m);
  const lower = lines.map((l) => l.toLowerCase());
  const needle = query.toLowerCase().trim();
  let hits = textHits(lower, query);
  if (hits.length > 0) return withFact({ mode: "text", hits, locate: firstOf([needle.split("\n")[0]!]) });
  const pasted = unpasteView(query);
  if (pasted !== undefined) {
    hits = textHits(lower, pasted);
    if (hits.length > 0)
      return withFact({ mode: "text", hits, locate: firstOf([pasted.toLowerCase().split("\n")[0]!.trim()]) });
  }
  const words = queryWords(query);
  if (words.length === 0) return withFact({ mode: "text", hits: [], locate: () => ({ at: -1, count: 0 }) });
  const locate = firstOf(words);
  hits = words.length > 1 ? wordHits(lower, words) : [];
  if (hits.length > 0)
    return {
      mode: "words",
      hits,
      locate,
      fact: refused ?? "no line holds the text as written; lines with all its words",
    };
  // A ranked line must hold at least half the words of one line of the query, or a word few
  // lines hold. A pasted line of code shares `export function string` with hundreds of lines;
  // ranking those filled a 400-token retrieve with noise where the grep an agent runs instead
  // returns nothing (session bench, Grep call). Per line, because a line of the original can hold
  // only one line of a pasted block (held to half the whole block's words, a block that changed
  // since ranked nothing). A rare word passes alone, because a question names one identifier
  // among words no line holds ("how does matchLines work"), and its lines are what grep for it
  // would show.
  const ranked = rankUnits(
    lines.map((text) => ({ text })),
    query,
    RANKED_MAX,
    { groups: (pasted ?? query).split("\n").map(queryWords), rareLines: RARE_LINES },
  );
  const fact =
    ranked.length > 0 ? "no line holds the text or all its words; lines ranked by its words" : undefined;
  return { mode: "ranked", hits: ranked, locate, ...(refused || fact ? { fact: refused ?? fact } : {}) };
}
