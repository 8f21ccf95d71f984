// BM25 ranking of retrieve units without an index: two streaming passes over the units (document
// frequencies, then scores), so memory stays a small multiple of the original whatever the query.
// Written here rather than taken from a search library because an inverted index of 150,000
// units, probed with a one-letter prefix (what `(a+)+$` tokenises to), grew the process by
// hundreds of megabytes; a retrieve ranks once and needs no index.
//
// Query terms are the query's words (letters, digits, `_`), lower-cased, at most MAX_TERMS; a unit
// word equal to a term counts 1, a word that merely starts with it PREFIX_WEIGHT. The query is
// never compiled as a pattern, so regex-shaped queries cost what any other query costs.

/**
 * A unit to rank: its text, and whether it is a header (shown as context before the units that
 * need it). Headers are ranked too: a query may name only what a header holds (a diff's file,
 * a commit's author), and skipping them made such a query "match nothing".
 */
export interface Rankable {
  text: string;
  header?: boolean;
}

import { tick } from "../work.js";

const WORD = /[\p{L}\p{N}_]+/gu;
const MAX_TERMS = 32;
const PREFIX_WEIGHT = 0.375;
const RARE_MIN_CHARS = 3;
const K1 = 1.2;
const B = 0.7;

/** Lower-cased distinct words of a query, at most MAX_TERMS. */
export function queryWords(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.toLowerCase().matchAll(WORD)) {
    out.add(m[0]);
    if (out.size >= MAX_TERMS) break;
  }
  return [...out];
}

/** Weighted term frequencies of `terms` in `text` (into `tf`), returning the word count. */
function countTerms(text: string, terms: readonly string[], tf: Float64Array): number {
  tf.fill(0);
  tick(text.length);
  let words = 0;
  for (const m of text.toLowerCase().matchAll(WORD)) {
    words++;
    const w = m[0];
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t]!;
      if (w === term) tf[t]! += 1;
      else if (w.length > term.length && w.startsWith(term)) tf[t]! += PREFIX_WEIGHT;
    }
  }
  return words;
}

/** How many of `terms` (indices) the unit whose frequencies are `tf` holds. */
function heldOf(tf: Float64Array, terms: readonly number[]): number {
  let n = 0;
  for (const t of terms) if (tf[t]! > 0) n++;
  return n;
}

/**
 * Which units may be ranked: those holding at least half the words of one of `groups` (sets of
 * the query's words, e.g. one per query line), or any word of RARE_MIN_CHARS or more that at most
 * `rareLines` units hold (`i`, `e`, `0` say little alone, however few lines hold them). A unit
 * "holds" a word as scoring counts it (a word equal to or starting with it).
 */
export interface RankBar {
  groups: readonly (readonly string[])[];
  rareLines: number;
}

/**
 * Indices of the best `limit` units for `query` (best first; ties by position), among those that
 * pass `bar` when one is given. The bar is applied before `limit`: cut after, units that pass were
 * lost behind `limit` better-scoring units that did not.
 */
export function rankUnits(units: readonly Rankable[], query: string, limit: number, bar?: RankBar): number[] {
  const terms = queryWords(query);
  if (terms.length === 0) return [];
  const bars = (bar?.groups ?? [])
    .map((g) => [...new Set(g.map((w) => terms.indexOf(w)).filter((t) => t >= 0))])
    .filter((g) => g.length > 0)
    .map((g) => ({ terms: g, need: Math.ceil(g.length / 2) }));
  const tf = new Float64Array(terms.length);
  const df = new Float64Array(terms.length);
  const lengths = new Float64Array(units.length);
  let docs = 0;
  let total = 0;
  for (let u = 0; u < units.length; u++) {
    const len = countTerms(units[u]!.text, terms, tf);
    lengths[u] = len;
    docs++;
    total += len;
    for (let t = 0; t < terms.length; t++) if (tf[t]! > 0) df[t]! += 1;
  }
  if (docs === 0) return [];
  const avg = total / docs || 1;
  const idf = Array.from(df, (d) => Math.log(1 + (docs - d + 0.5) / (d + 0.5)));
  const rare = bar ? terms.map((w, t) => w.length >= RARE_MIN_CHARS && df[t]! <= bar.rareLines) : [];
  // Reads `tf` as countTerms last filled it: call it for the unit just counted.
  const passes = () =>
    rare.some((r, t) => r && tf[t]! > 0) || bars.some((b) => heldOf(tf, b.terms) >= b.need);
  const scored: Array<{ id: number; score: number }> = [];
  for (let u = 0; u < units.length; u++) {
    countTerms(units[u]!.text, terms, tf);
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const f = tf[t]!;
      if (f > 0) score += idf[t]! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * lengths[u]!) / avg)));
    }
    if (score > 0 && (bars.length === 0 || passes())) scored.push({ id: u, score });
  }
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return scored.slice(0, limit).map((s) => s.id);
}
