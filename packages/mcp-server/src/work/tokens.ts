// Token counts that never hold the event loop. Contract: `countTokensWithin` asks the engine
// (inline for short text, in a worker otherwise) and, when it gives no count in time, falls back
// to `roughTokens` and says it did; the count is a figure for notes and session stats, never a
// reason to fail a call.
import type { Engine } from "./engine.js";

/** About four characters per token: the fallback when no exact count came in time. */
export function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export async function countTokensWithin(
  engine: Engine,
  text: string,
  signal?: AbortSignal,
): Promise<{ tokens: number; estimated: boolean }> {
  const outcome = await engine.run({ op: "count", input: text }, signal);
  return outcome.ok
    ? { tokens: outcome.value, estimated: false }
    : { tokens: roughTokens(text), estimated: true };
}
