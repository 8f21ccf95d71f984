// The JSON compressor. First the lossless re-encodings (compact JSON, TOON) that round-trip; then
// thinning of long redundant arrays, cut from the original bytes with markers. The smallest
// honest form wins; a lossy form must beat the best lossless one clearly to be chosen.
import { decode, encode } from "@toon-format/toon";
import { measureTokens } from "../tokens.js";
import type { Candidate } from "../types.js";
import { itemTexts, thinJson } from "./thin.js";

/** Above this many characters TOON is skipped: encoding and verifying it costs ~150 ms per MB. */
export const TOON_MAX_CHARS = 262_144;
const LOSSY_MUST_BEAT = 0.8;

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
  let best: { c: Candidate; tokens: number } | undefined;
  for (const c of losslessCandidates(value)) {
    const measured = measureTokens(c.output);
    if (!best || measured.tokens < best.tokens)
      best = { c: { ...c, tokens: measured }, tokens: measured.tokens };
  }
  const lossy = thinned(value, opts);
  if (lossy) {
    const measured = measureTokens(lossy.output);
    if (!best || measured.tokens < best.tokens * LOSSY_MUST_BEAT) return { ...lossy, tokens: measured };
  }
  return best && best.c.output !== text ? best.c : undefined;
}
