// caveman_compress and caveman_stats. Contract: compress is fail-open — anything the engine passes
// through, anything the store refuses, and any re-compression of a retrieve's own output comes back
// byte-identical, with a note giving `ratio 0`, no recovery handle and the reason, never as an
// error. Lossy output is returned only after the original is in the CCR store under the handle it
// cites. Compress is a text tool (the output, then one note with kind, ratio, tokens and handle);
// stats is a data tool (its figures are the payload). The engine runs through `deps.engine`, under
// a deadline: past it the input comes back unchanged with reason `timeout` and nothing is stored.
import { type AnyCcrStore, prepareOriginal } from "@caveman/ccr-store";
import { z } from "zod";
import type { TextOutcome } from "../contract.js";
import { defineTool, type ToolSpec } from "../registry.js";
import type { Session } from "../session.js";
import { toWireError } from "../wire/errorMap.js";
import type { Engine } from "../work/engine.js";
import { outputOf } from "../work/jobs.js";
import { countTokensWithin, roughTokens } from "../work/tokens.js";

/** What the stats tool says about where originals are kept. */
export interface StoreInfo {
  backend: "sqlite" | "memory";
  path?: string;
  /** Why the SQLite store could not be used, when the server fell back to memory. */
  fallback?: string;
}

export interface CompressionDeps {
  /** A local store, or the tiered store (local first, then the team store). */
  ccr: AnyCcrStore;
  session: Session;
  store: StoreInfo;
  engine: Engine;
}

/** What one compress call did; the tool renders it as text, the CLI prints it its own way. */
export interface CompressReport {
  /** The compressed text, or the input unchanged when it passed through. */
  output: string;
  kind: string;
  ratio: number;
  tokens_in: number;
  tokens_out: number;
  lossless: boolean;
  /** Where the original is kept; null when nothing was compressed. */
  recovery_handle: string | null;
  /** Why the input passed through unchanged (set iff `recovery_handle` is null). */
  reason?: string;
  /** Set when the token figures are a rough estimate (the engine gave no count in time). */
  tokens_estimated?: true;
}

export interface CompressArgs {
  input: string;
  hint?: string | undefined;
  query?: string | undefined;
}

interface PassThrough {
  kind: string;
  tokens: number;
  reason: string;
  estimated?: boolean;
  /** Leave the session figures alone (a cancelled call: nobody sees its answer). */
  unrecorded?: boolean;
}

function passThrough(input: string, session: Session, p: PassThrough): CompressReport {
  if (!p.unrecorded) session.recordCompress(p.kind, p.tokens, p.tokens, p.reason);
  return {
    output: input,
    kind: p.kind,
    ratio: 0,
    tokens_in: p.tokens,
    tokens_out: p.tokens,
    lossless: true,
    recovery_handle: null,
    reason: p.reason,
    ...(p.estimated ? { tokens_estimated: true as const } : {}),
  };
}

/**
 * Compress once, fail-open, storing the original first; records the call in the session. The
 * engine's work is bounded by its deadline: a timeout, a crashed worker or a cancel gives the
 * input back unchanged, and nothing reaches the store unless a compressed output is returned.
 */
export async function compressInput(
  deps: CompressionDeps,
  { input, hint, query }: CompressArgs,
  signal?: AbortSignal,
): Promise<CompressReport> {
  // Encoded and hashed once: the note cites this handle, and the store keeps the same bytes.
  // A lone surrogate throws invalid_original here, as before any engine work.
  const original = prepareOriginal(input);
  const { handle } = original;
  if (deps.session.isRetrievedOutput(handle)) {
    const count = await countTokensWithin(deps.engine, input, signal);
    return passThrough(input, deps.session, {
      kind: "text",
      tokens: count.tokens,
      reason: "retrieved_output",
      estimated: count.estimated,
    });
  }
  // The handle is not passed to the engine: the closing note names it once, and a marker naming it
  // again would cost about 20 tokens per result for nothing.
  const outcome = await deps.engine.run({ op: "compress", input, options: { hint, query } }, signal);
  if (!outcome.ok) {
    // The engine promises never to throw; if it does, dies, or runs out of time, the input still
    // goes back untouched. The token figure is then a rough size estimate, and says so.
    return passThrough(input, deps.session, {
      kind: "text",
      tokens: roughTokens(input),
      reason:
        outcome.why === "timeout" ? "timeout" : outcome.why === "cancelled" ? "cancelled" : "internal_error",
      estimated: true,
      unrecorded: outcome.why === "cancelled",
    });
  }
  const result = outcome.value;
  const output = outputOf(result, input);
  if (result.reason !== undefined || output === input) {
    return passThrough(input, deps.session, {
      kind: result.kind,
      tokens: result.tokensIn,
      reason: result.reason ?? "not_smaller",
    });
  }
  try {
    await deps.ccr.put(original, {
      kind: result.kind,
      producer: hint,
      tokensIn: result.tokensIn,
      tokensOut: result.tokensOut,
    });
  } catch (err) {
    const code = toWireError(err)?.code ?? "cave_store_failed";
    return passThrough(input, deps.session, {
      kind: result.kind,
      tokens: result.tokensIn,
      reason: `store_refused:${code}`,
    });
  }
  deps.session.recordCompress(result.kind, result.tokensIn, result.tokensOut);
  return {
    output,
    kind: result.kind,
    ratio: result.ratio,
    tokens_in: result.tokensIn,
    tokens_out: result.tokensOut,
    lossless: result.lossless,
    recovery_handle: handle,
  };
}

/** The one-line note after the output: every figure of the report, in marker form. */
export function compressNote(r: CompressReport): string {
  return r.recovery_handle === null
    ? `[caveman: not compressed (${r.reason}); ${r.kind}; ratio 0; ${r.tokens_estimated ? "about " : ""}${r.tokens_in} tokens; no recovery handle]`
    : `[caveman: ${r.kind}; ratio ${r.ratio}; ${r.tokens_in} -> ${r.tokens_out} tokens; ${r.lossless ? "lossless" : "lossy"}; retrieve ${r.recovery_handle}]`;
}

export function compressTool(deps: CompressionDeps): ToolSpec {
  return defineTool({
    name: "caveman_compress",
    family: "compress",
    description:
      "Shrink large tool output (JSON, logs, diffs, tests, traces); the original is kept for caveman_retrieve. Small or odd input returns unchanged.",
    input: z.strictObject({
      input: z.string(),
      hint: z.string().max(200).optional().describe("content type or producing command"),
      query: z.string().max(2000).optional().describe("what you look for; matches are kept"),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (args, ctx): Promise<TextOutcome> => {
      const report = await compressInput(deps, args, ctx.signal);
      return { text: report.output, notes: [compressNote(report)] };
    },
  });
}

export function statsTool(deps: CompressionDeps): ToolSpec {
  return defineTool({
    name: "caveman_stats",
    family: "compress",
    description: "Session compression figures: calls, tokens in/out, saved net of retrieves, by kind.",
    input: z.strictObject({}),
    output: z.object({
      basis: z.literal("inferred"),
      scope: z.literal("session"),
      saved_tokens_net: z.number(),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async () => {
      const stats = deps.session.stats();
      const store: Record<string, unknown> = { backend: deps.store.backend };
      if (deps.store.path) store.path = deps.store.path;
      if (deps.store.fallback) store.fallback = deps.store.fallback;
      try {
        const s = await deps.ccr.stats();
        store.entries = s.entries;
        store.bytes = s.bytes;
        // The tiered store adds its team link (URL with the password masked).
        if ("team" in s && s.team) store.team = s.team;
      } catch (err) {
        store.error = toWireError(err)?.code ?? "cave_store_failed";
      }
      return { data: { ...stats, store, engine: deps.engine.stats() } };
    },
  });
}
