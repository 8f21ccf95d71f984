// caveman_compress and caveman_stats. Contract: compress is fail-open — anything the engine passes
// through, anything the store refuses, and any re-compression of a retrieve's own output comes back
// byte-identical, with a note giving the reason and no recovery handle, never as an
// error. Lossy output is returned only after the original is in the CCR store under the handle it
// cites (`@caveman/keep` does the compress-and-keep and writes the notes). Compress is a text tool
// (the stand-in, header first; or the input, then the pass note); stats is a data tool (its
// figures are the payload). The engine runs through `deps.engine`, under a deadline: past it the
// input comes back unchanged with reason `timeout` and nothing is stored.
import { type AnyCcrStore, prepareOriginal } from "@caveman/ccr-store";
import { type Kept, keep, passNote, standIn } from "@caveman/keep";
import { z } from "zod";
import type { TextOutcome } from "../contract.js";
import { defineTool, type ToolSpec } from "../registry.js";
import type { Session } from "../session.js";
import { toWireError } from "../wire/errorMap.js";
import type { Engine } from "../work/engine.js";
import { engineRunner } from "../work/runner.js";
import { countTokensWithin } from "../work/tokens.js";

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
  /** Told of every stand-in (the savings journal). */
  onKept?: (kept: Kept) => void;
}

/** What one compress call did; the tool renders it as text, the CLI prints it its own way. */
export interface CompressReport {
  /** The compressed body (without its header), or the input unchanged when it passed through. */
  output: string;
  /** The stand-in's first line (kind, tokens, handle); null when nothing was compressed. */
  header: string | null;
  kind: string;
  ratio: number;
  tokens_in: number;
  /** Tokens of the stand-in, header included (of the input when it passed through). */
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
    header: null,
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

/** Reasons whose token figure the engine never computed: counted here, roughly if need be. */
const UNCOUNTED = new Set(["timeout", "cancelled", "internal_error", "already_compressed"]);

/**
 * Compress once through `keep`, fail-open, storing the original first; records the call in the
 * session. The engine's work is bounded by its deadline: a timeout, a crashed worker or a cancel
 * gives the input back unchanged, and nothing reaches the store unless a stand-in is returned.
 */
export async function compressInput(
  deps: CompressionDeps,
  { input, hint, query }: CompressArgs,
  signal?: AbortSignal,
): Promise<CompressReport> {
  // Hashed once: the session check and keep share it. A lone surrogate throws invalid_original
  // here, before any engine work.
  const original = prepareOriginal(input);
  if (deps.session.isRetrievedOutput(original.handle)) {
    const count = await countTokensWithin(deps.engine, input, signal);
    return passThrough(input, deps.session, {
      kind: "text",
      tokens: count.tokens,
      reason: "retrieved_output",
      estimated: count.estimated,
    });
  }
  const r = await keep(
    { text: input, original, ...(hint ? { hint, producer: hint } : {}), ...(query ? { query } : {}) },
    { run: engineRunner(deps.engine), store: deps.ccr, ...(deps.onKept ? { onKept: deps.onKept } : {}) },
    signal,
  );
  if (!r.kept) {
    if (r.reason === "store_refused") {
      const code = toWireError(r.error)?.code ?? "cave_store_failed";
      return passThrough(input, deps.session, {
        kind: r.kind,
        tokens: r.tokensIn,
        reason: `store_refused:${code}`,
      });
    }
    // The engine promises never to throw; if it does, dies, or runs out of time, the input still
    // goes back untouched, and the token figure is a rough size estimate that says so.
    return passThrough(input, deps.session, {
      kind: r.kind,
      tokens: r.tokensIn,
      reason: r.reason,
      ...(r.estimated || UNCOUNTED.has(r.reason) ? { estimated: true } : {}),
      unrecorded: r.reason === "cancelled",
    });
  }
  deps.session.recordCompress(r.kind, r.tokensIn, r.tokensOut);
  return {
    output: r.body,
    header: r.header,
    kind: r.kind,
    ratio: r.ratio,
    tokens_in: r.tokensIn,
    tokens_out: r.tokensOut,
    lossless: r.lossless,
    recovery_handle: r.handle,
  };
}

/** What the compress tool answers: the stand-in (header first), or the input and why it stayed. */
export function renderCompress(r: CompressReport): TextOutcome {
  if (r.header === null)
    return {
      text: r.output,
      notes: [
        passNote({
          reason: r.reason ?? "not_smaller",
          kind: r.kind,
          tokens: r.tokens_in,
          ...(r.tokens_estimated ? { estimated: true } : {}),
        }),
      ],
    };
  return { text: standIn(r.header, r.output), notes: [] };
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
      return renderCompress(await compressInput(deps, args, ctx.signal));
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
