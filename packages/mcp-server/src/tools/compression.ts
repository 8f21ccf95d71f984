// caveman_compress and caveman_stats. Contract: compress is fail-open — anything the engine passes
// through, anything the store refuses, and any re-compression of a retrieve's own output comes back
// byte-identical with `ratio: 0`, `recovery_handle: null` and a `reason`, never as an error. Lossy
// output is returned only after the original is in the CCR store under the handle it cites.
import type { AnyCcrStore } from "@caveman/ccr-store";
import { computeHandle } from "@caveman/ccr-store";
import { compress, countTokens } from "@caveman/engine";
import { z } from "zod";
import { defineTool, type ToolOutcome, type ToolSpec } from "../registry.js";
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

const CompressOut = z.object({
  ratio: z.number(),
  tokens_in: z.number(),
  tokens_out: z.number(),
  kind: z.string(),
  recovery_handle: z.string().nullable(),
  reason: z.string().optional(),
});

function passThrough(
  input: string,
  kind: string,
  tokens: number,
  reason: string,
  session: Session,
): ToolOutcome {
  session.recordCompress(kind, tokens, tokens, reason);
  return {
    text: input,
    structured: { ratio: 0, tokens_in: tokens, tokens_out: tokens, kind, recovery_handle: null, reason },
  };
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
    output: CompressOut,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async ({ input, hint, query }) => {
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
      const structured = {
        ratio: result.ratio,
        tokens_in: result.tokensIn,
        tokens_out: result.tokensOut,
        kind: result.kind,
        recovery_handle: handle,
      };
      const summary = `[caveman: ${result.kind}; ratio ${result.ratio}; ${result.tokensIn} -> ${result.tokensOut} tokens; ${result.lossless ? "lossless" : "lossy"}; retrieve ${handle}]`;
      return { text: result.output, notes: [summary], structured };
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
      const structured = { ...stats, store };
      return { text: JSON.stringify(structured), structured };
    },
  });
}
