// Token counts with the o200k_base encoding (gpt-tokenizer). Exact up to EXACT_TOKEN_LIMIT
// characters; above it the count is a deterministic estimate from evenly spaced samples and is
// labelled `estimated: true`, because exact counting of megabytes costs ~100 ms per MB here (the estimate reads 32 KB whatever the size).
import { countTokens as o200kCount } from "gpt-tokenizer";

/** Inputs up to this many UTF-16 code units are counted exactly. */
export const EXACT_TOKEN_LIMIT = 65_536;

const SAMPLE_COUNT = 16;
const SAMPLE_SIZE = 2_048;
// Special-token text such as "<|endoftext|>" is ordinary text in tool output: count it, never throw.
const PLAIN = { disallowedSpecial: new Set<string>() };

/** A token count and whether it was estimated. */
export interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/** Runs of one character class longer than this are counted in slices of this size. */
const LONG_RUN = 256;

/** The o200k pre-tokenizer's classes, roughly: 0 letter (any non-ASCII too), 1 digit, 2 space, 3 punctuation. */
function charClass(c: number): number {
  if (c >= 48 && c <= 57) return 1;
  if (c <= 32) return 2;
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 128) return 0;
  return 3;
}

/**
 * o200k count, exact unless the text holds a run of more than LONG_RUN letters, spaces or
 * punctuation. Such a run is one pre-token, and BPE merging of one pre-token is quadratic in its
 * length (65,536 "a"s took 3.4 s); it is cut into LONG_RUN slices counted apart, which can differ
 * from the exact count by a token per cut, so the result is then labelled an estimate. Digits
 * never form long pre-tokens (o200k splits them in threes).
 */
function exact(text: string): TokenCount {
  let total = 0;
  let from = 0;
  let run = 0;
  let runClass = -1;
  let cut = false;
  for (let i = 0; i < text.length; i++) {
    const k = charClass(text.charCodeAt(i));
    if (k === runClass && k !== 1) run++;
    else {
      runClass = k;
      run = 1;
    }
    if (run > LONG_RUN) {
      total += o200kCount(text.slice(from, i), PLAIN);
      from = i;
      run = 1;
      cut = true;
    }
  }
  total += o200kCount(text.slice(from), PLAIN);
  return { tokens: total, estimated: cut };
}

/** Counts o200k tokens, estimating (and saying so) above EXACT_TOKEN_LIMIT characters. */
export function measureTokens(text: string): TokenCount {
  if (text.length <= EXACT_TOKEN_LIMIT) return exact(text);
  const stride = Math.floor((text.length - SAMPLE_SIZE) / (SAMPLE_COUNT - 1));
  let sampled = 0;
  let sampledChars = 0;
  for (let i = 0; i < SAMPLE_COUNT; i++) {
    const start = i * stride;
    const chunk = text.slice(start, start + SAMPLE_SIZE);
    sampled += exact(chunk).tokens;
    sampledChars += chunk.length;
  }
  return { tokens: Math.round((sampled * text.length) / sampledChars), estimated: true };
}

/** o200k token count of `text` (an estimate above EXACT_TOKEN_LIMIT characters). */
export function countTokens(text: string): number {
  try {
    return measureTokens(text).tokens;
  } catch {
    // Never throw to callers; a byte-based estimate is the honest fallback.
    return Math.ceil(text.length / 4);
  }
}
