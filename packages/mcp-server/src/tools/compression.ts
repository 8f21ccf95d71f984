// caveman_compress and caveman_stats. Contract: compress is fail-open — anything the engine passes
// through, anything the store refuses, and any re-compression of a retrieve's own output comes back
// byte-identical, with a note giving `ratio 0`, no recovery handle and the reason, never as an
// error. Lossy output is returned only after the original is in the CCR store under the handle it
// cites. Compress is a text tool (the output, then one note with kind, ratio, tokens and handle);
// stats is a data tool (its figures are the payload).
import type { AnyCcrStore } from "@caveman/ccr-store";
import { computeHandle } from "@caveman/ccr-store";
import { compress, countTokens } from "@caveman/engine";
import { z } from "zod";
import type { TextOutcome } from "../contract.js";
import { defineTool, type ToolSpec } from "../registry.js";
import type { Session } from "../session.js";
import { toWireError } from "../wire/errorMap.js";

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
}

export interface CompressArgs {
  input: string;
  hint?: string | undefined;
  query?: string | undefined;
}

function passThrough(input: string, kind: string, tokens: number, reason: string, session: Session) {
  session.recordCompress(kind, tokens, tokens, reason);
  return {
    output: input,
    kind,
    ratio: 0,
    tokens_in: tokens,
    tokens_out: tokens,
    lossless: true,
    recovery_handle: null,
    reason,
  } satisfies CompressReport;
}

/** Compress once, fail-open, storing the original first; records the call in the session. */
export async function compressInput(
  deps: CompressionDeps,
  { input, hint, query }: CompressArgs,
): Promise<CompressReport> {
  const handle = computeHandle(input);
  if (deps.session.isRetrievedOutput(handle)) {
    return passThrough(input, "text", countTokens(input), "retrieved_output", deps.session);
  }
  let result: ReturnType<typeof compress>;
  try {
    result = compress(input, { hint, query, handle });
  } catch {
    // The engine promises never to throw; if it does, the input still goes back untouched.
    return passThrough(input, "text", countTokens(input), "internal_error", deps.session);
  }
  if (result.reason !== undefined || result.output === input) {
    return passThrough(input, result.kind, result.tokensIn, result.reason ?? "not_smaller", deps.session);
  }
  try {
    await deps.ccr.put(input, {
      kind: result.kind,
      producer: hint,
      tokensIn: result.tokensIn,
      tokensOut: result.tokensOut,
    });
  } catch (err) {
    const code = toWireError(err)?.code ?? "cave_store_failed";
    return passThrough(input, result.kind, result.tokensIn, `store_refused:${code}`, deps.session);
  }
  deps.session.recordCompress(result.kind, result.tokensIn, result.tokensOut);
  return {
    output: result.output,
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
    ? `[caveman: not compressed (${r.reason}); ${r.kind}; ratio 0; ${r.tokens_in} tokens; no recovery handle]`
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
    run: async (args): Promise<TextOutcome> => {
      const report = await compressInput(deps, args);
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
      return { data: { ...stats, store } };
    },
  });
}
