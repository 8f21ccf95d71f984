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

function exact(text: string): number {
  return o200kCount(text, PLAIN);
}

/** Counts o200k tokens, estimating (and saying so) above EXACT_TOKEN_LIMIT characters. */
export function measureTokens(text: string): TokenCount {
  if (text.length <= EXACT_TOKEN_LIMIT) return { tokens: exact(text), estimated: false };
  const stride = Math.floor((text.length - SAMPLE_SIZE) / (SAMPLE_COUNT - 1));
  let sampled = 0;
  let sampledChars = 0;
  for (let i = 0; i < SAMPLE_COUNT; i++) {
    const start = i * stride;
    const chunk = text.slice(start, start + SAMPLE_SIZE);
    sampled += exact(chunk);
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
