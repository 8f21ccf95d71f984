// compress(): detect, dispatch to the kind's compressor, and fail closed. The input comes back
// byte-identical with ratio 0 and a reason when it is below the floor, already carries our
// markers (which makes compress idempotent), is malformed, does not shrink by MIN_GAIN, or when
// anything throws. Lossy outputs are checked line by line: each must be a line or slice of a line
// of the input, or a marker; otherwise the result is discarded as an internal error.

import { budgetOf, holdToBudget } from "./budget.js";
import { detectWithValue } from "./detect.js";
import { compressByKind } from "./dispatch.js";
import { linesAreHonest } from "./lines.js";
import { hasOwnMarker, nameHandleOnce } from "./markers.js";
import { measureTokens } from "./tokens.js";
import type { CompressOptions, CompressResult, ContentKind, PassReason } from "./types.js";

/** Default floor: inputs with fewer tokens pass through. */
export const DEFAULT_FLOOR_TOKENS = 300;
/** Output must save at least this share of tokens, or the input passes through. */
export const MIN_GAIN = 0.1;

/** Kinds whose compressors rewrite within lines (word drops, escapes, JSON re-encoding, markup). */
const REWRITING: ReadonlySet<ContentKind> = new Set(["prose", "terminal", "json", "html"]);

function pass(
  input: string,
  kind: ContentKind,
  tokens: number,
  estimated: boolean,
  reason: PassReason,
): CompressResult {
  return {
    output: input,
    kind,
    ratio: 0,
    tokensIn: tokens,
    tokensOut: tokens,
    lossless: true,
    reason,
    ...(estimated ? { tokensEstimated: true } : {}),
  };
}

/** Compresses tool output; never throws (fails closed to the input with a reason). */
export function compress(input: string, options: CompressOptions = {}): CompressResult {
  const limit = budgetOf(options.budget);
  const r = compressWithin(input, options, limit);
  return limit === undefined ? r : { ...r, budget: { limit, met: r.tokensOut <= limit } };
}

function compressWithin(input: string, options: CompressOptions, budget: number | undefined): CompressResult {
  let kind: ContentKind = "text";
  let tokensIn = 0;
  let estimated = false;
  try {
    const text = typeof input === "string" ? input : String(input);
    const measured = measureTokens(text);
    tokensIn = measured.tokens;
    estimated = measured.estimated;
    const detection = detectWithValue(text, options.hint);
    kind = detection.kind;
    const floor = options.floorTokens ?? DEFAULT_FLOOR_TOKENS;
    if (tokensIn < floor) return pass(text, kind, tokensIn, estimated, "below_floor");
    if (hasOwnMarker(text)) return pass(text, kind, tokensIn, estimated, "not_smaller");
    let outcome = compressByKind(text, detection, {
      ...(options.hint ? { hint: options.hint } : {}),
      ...(options.query ? { query: options.query } : {}),
      ...(options.handle ? { handle: options.handle } : {}),
    });
    if (budget !== undefined) outcome = holdToBudget(text, outcome, tokensIn, budget, kind, options.handle);
    if (typeof outcome === "string") return pass(text, kind, tokensIn, estimated, outcome);
    if (!outcome.lossless && options.handle) {
      const once = nameHandleOnce(outcome.output, options.handle);
      if (once !== outcome.output) outcome = { output: once, lossless: false };
    }
    if (!outcome.lossless && !REWRITING.has(kind) && !linesAreHonest(text, outcome.output))
      return pass(text, kind, tokensIn, estimated, "internal_error");
    const out = outcome.tokens ?? measureTokens(outcome.output);
    // Under a budget the input itself is over it: any output within it beats passing through.
    const forced = budget !== undefined && tokensIn > budget && out.tokens <= budget;
    if (!forced && out.tokens > tokensIn * (1 - MIN_GAIN))
      return pass(text, kind, tokensIn, estimated, "not_smaller");
    return {
      output: outcome.output,
      kind,
      ratio: Math.round((1 - out.tokens / tokensIn) * 10_000) / 10_000,
      tokensIn,
      tokensOut: out.tokens,
      lossless: outcome.lossless,
      ...(estimated || out.estimated ? { tokensEstimated: true } : {}),
      ...(detection.language ? { language: detection.language } : {}),
    };
  } catch {
    return pass(typeof input === "string" ? input : "", kind, tokensIn, estimated, "internal_error");
  }
}

export { linesAreHonest };
