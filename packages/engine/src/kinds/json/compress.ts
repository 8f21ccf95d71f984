// The JSON compressor. First the lossless re-encodings (compact JSON, TOON) that round-trip; then
// thinning of long redundant arrays, cut from the original bytes with markers. The smallest
// honest form wins; a lossy form must beat the best lossless one clearly to be chosen.
import { decode, encode } from "@toon-format/toon";
import { measureTokens } from "../../tokens.js";
import type { Candidate } from "../../types.js";
import { itemTexts, thinJson } from "./thin.js";

/** Above this many characters TOON is skipped: encoding and verifying it costs ~150 ms per MB. */
const TOON_MAX_CHARS = 262_144;
const LOSSY_MUST_BEAT = 0.8;
/** A thinned array this share of compact JSON's characters wins without counting compact JSON. */
const CLEAR_WIN_CHARS = 0.4;

export interface JsonCompressOptions {
  query?: string;
  handle?: string;
}

function losslessCandidates(value: unknown): Candidate[] {
  // Same text as JSON.stringify(value); for an array, the element texts thinning reuses.
  const compact = Array.isArray(value) ? `[${itemTexts(value).join(",")}]` : JSON.stringify(value);
  const out: Candidate[] = [{ output: compact, lossless: true }];
  if (compact.length <= TOON_MAX_CHARS && value !== null && typeof value === "object") {
    try {
      const toon = encode(value);
      if (JSON.stringify(decode(toon)) === compact) out.push({ output: toon, lossless: true });
    } catch {
      // A value TOON cannot represent exactly simply is not a candidate.
    }
  }
  return out;
}

function thinned(value: unknown, opts: JsonCompressOptions): Candidate | undefined {
  const result = thinJson(value, opts);
  if (result.elided === 0) return undefined;
  // Belt and braces: a thinned form must still be JSON.
  JSON.parse(result.text);
  return { output: result.text, lossless: false };
}

/**
 * Returns the best candidate for JSON `text` (parsed as `value`), or undefined when nothing beats
 * the input. Thinning writes compact JSON, so pretty, compact and TOON inputs of one value give
 * the same thinned form, and the lossless baseline is computed the same way for all of them:
 * compressing an output again picks it again (idempotence).
 */
export function compressJson(text: string, value: unknown, opts: JsonCompressOptions): Candidate | undefined {
  const lossy = thinned(value, opts);
  // Above TOON_MAX_CHARS compact JSON is the only lossless form. A thinned form under
  // CLEAR_WIN_CHARS of its characters beats it by far more than LOSSY_MUST_BEAT asks: the two
  // hold the same records, so their tokens per character differ far less than 2.5x. Counting
  // (and building) the megabyte of compact JSON only to lose cost a fifth of the JSON path.
  if (lossy && Array.isArray(value)) {
    const compactChars = compactLength(value);
    if (compactChars > TOON_MAX_CHARS && lossy.output.length <= compactChars * CLEAR_WIN_CHARS)
      return { ...lossy, tokens: measureTokens(lossy.output) };
  }
  let best: { c: Candidate; tokens: number } | undefined;
  for (const c of losslessCandidates(value)) {
    const measured = measureTokens(c.output);
    if (!best || measured.tokens < best.tokens)
      best = { c: { ...c, tokens: measured }, tokens: measured.tokens };
  }
  if (lossy) {
    const measured = measureTokens(lossy.output);
    if (!best || measured.tokens < best.tokens * LOSSY_MUST_BEAT) return { ...lossy, tokens: measured };
  }
  return best && best.c.output !== text ? best.c : undefined;
}

/** Characters of the compact JSON of an array, without writing it. */
function compactLength(items: readonly unknown[]): number {
  let chars = 1 + items.length;
  for (const t of itemTexts(items)) chars += t.length;
  return chars;
}
