// Compress and keep: the one path from a tool output to the stand-in the model reads (the compress
// tool, the hooks, the proxy and the CLI all come through here). Contract: a stand-in is returned
// only after its original is in the store under the handle its header cites; anything else —
// below the floor, already a stand-in, an engine that passes, fails or runs out of time, a kind
// the caller refuses, too small a gain, over the budget, a store that refuses, the caller's time
// up — is a pass with a reason, and the caller keeps the text as it was. Only a lone surrogate
// throws (`invalid_original`): such a string has no exact bytes to keep.
//
// The steps are written as a generator that yields its two effects (run the engine, store the
// original), so the steps read straight through and stay testable apart from how they are driven.
import { type CcrMeta, type PreparedOriginal, prepareOriginal } from "@caveman/ccr-store";
import { type CompressOptions, type CompressResult, compress, countTokens } from "@caveman/engine";
import { keptHeader, standIn, startsWithHeader } from "./note.js";

export interface KeepRequest {
  text: string;
  /** Engine hint: a kind, or the producing command. */
  hint?: string;
  /** What the agent looks for: matching units are kept. */
  query?: string;
  /** Most o200k tokens the whole stand-in may cost, header included. */
  budget?: number;
  /** Texts with fewer tokens pass (the engine's default when unset). */
  floorTokens?: number;
  /** Least share of the text's tokens the stand-in, header included, must save (default 0). */
  minGain?: number;
  /** Stored as the original's producer: the tool and its command (cut to 256 characters). */
  producer?: string;
  /** Whether a result of this kind may stand in for the text; a refusal passes `kind_<kind>`. */
  accept?: (kind: string) => boolean;
  /** `prepareOriginal(text)`, when the caller made it already (it is not hashed twice). */
  original?: PreparedOriginal;
}

export type RunFailure = "timeout" | "cancelled" | "failed";
export type RunOutcome =
  | { ok: true; result: CompressResult }
  | { ok: false; why: RunFailure; message: string };
/** Runs the engine's compress somewhere (this thread, a worker) and always settles. */
export type Runner = (input: string, options: CompressOptions, signal?: AbortSignal) => Promise<RunOutcome>;

/** Where originals go: a local store, or the tiered store (local first, then the team store). */
export interface OriginalSink {
  put(original: PreparedOriginal, meta: CcrMeta): unknown;
}

export interface Kept {
  kept: true;
  /** Header line, newline, body: what replaces the text. */
  text: string;
  header: string;
  /** The engine's output alone. */
  body: string;
  handle: string;
  kind: string;
  tokensIn: number;
  /** Tokens of the whole stand-in, header included. */
  tokensOut: number;
  /** Tokens of the body alone. */
  bodyTokens: number;
  ratio: number;
  lossless: boolean;
  estimated: boolean;
  language?: string;
}

export interface Passed {
  kept: false;
  reason: string;
  kind: string;
  tokensIn: number;
  estimated: boolean;
  /** The store's error, when reason is `store_refused`. */
  error?: unknown;
}

export type KeepOutcome = Kept | Passed;

interface Common {
  /** True once the caller's time is up: nothing more is started and the text passes. */
  expired?: () => boolean;
  /** Told of every stand-in returned (the savings journal); its faults are ignored. */
  onKept?: (kept: Kept) => void;
}

export interface KeepDeps extends Common {
  run: Runner;
  store: OriginalSink;
}

/** The engine on the calling thread. */
export const inlineRunner: Runner = (input, options) => Promise.resolve(runHere(input, options));

function runHere(input: string, options: CompressOptions): RunOutcome {
  try {
    return { ok: true, result: compress(input, options) };
  } catch (err) {
    return { ok: false, why: "failed", message: err instanceof Error ? err.message : String(err) };
  }
}

type Effect =
  | { op: "run"; input: string; options: CompressOptions }
  | { op: "put"; original: PreparedOriginal; meta: CcrMeta };
type Reply = RunOutcome | { stored: true } | { stored: false; error: unknown };

/** Tokens the header may add: its cost with the widest figures, plus the newline. */
function headerReserve(handle: string): number {
  return (
    countTokens(keptHeader({ kind: "diagnostics", tokensIn: 99_999_999, tokensOut: 99_999_999, handle })) + 1
  );
}

function* steps(req: KeepRequest, c: Common): Generator<Effect, KeepOutcome, Reply> {
  const rough = Math.ceil(req.text.length / 4);
  const pass = (reason: string, kind = "text", tokensIn = rough, estimated = true): Passed => ({
    kept: false,
    reason,
    kind,
    tokensIn,
    estimated,
  });
  if (startsWithHeader(req.text)) return pass("already_compressed");
  if (c.expired?.()) return pass("deadline");
  // Hashed once: the header cites this handle, and the store keeps these very bytes.
  const original = req.original ?? prepareOriginal(req.text);
  const reserve = headerReserve(original.handle);
  if (req.budget !== undefined && req.budget <= reserve) return pass("budget_too_small");
  const options: CompressOptions = {
    ...(req.hint ? { hint: req.hint } : {}),
    ...(req.query ? { query: req.query } : {}),
    ...(req.floorTokens !== undefined ? { floorTokens: req.floorTokens } : {}),
    ...(req.budget !== undefined ? { budget: req.budget - reserve } : {}),
  };
  const ran = (yield { op: "run", input: req.text, options }) as RunOutcome;
  if (!ran.ok) return pass(ran.why === "failed" ? "internal_error" : ran.why);
  const r = ran.result;
  const estimated = r.tokensEstimated === true;
  if (r.reason !== undefined || r.output === req.text)
    return pass(r.reason ?? "not_smaller", r.kind, r.tokensIn, estimated);
  if (req.accept && !req.accept(r.kind)) return pass(`kind_${r.kind}`, r.kind, r.tokensIn, estimated);
  // The header states the stand-in's own size, so it is sized with a first guess, then again.
  let header = keptHeader({
    kind: r.kind,
    tokensIn: r.tokensIn,
    tokensOut: r.tokensOut,
    handle: original.handle,
  });
  let tokensOut = r.tokensOut + countTokens(header) + 1;
  header = keptHeader({ kind: r.kind, tokensIn: r.tokensIn, tokensOut, handle: original.handle });
  tokensOut = r.tokensOut + countTokens(header) + 1;
  if (tokensOut > r.tokensIn * (1 - (req.minGain ?? 0)) || tokensOut >= r.tokensIn)
    return pass("gain_below_min", r.kind, r.tokensIn, estimated);
  if (req.budget !== undefined && tokensOut > req.budget)
    return pass("over_budget", r.kind, r.tokensIn, estimated);
  if (c.expired?.()) return pass("deadline", r.kind, r.tokensIn, estimated);
  const meta: CcrMeta = { kind: r.kind, tokensIn: r.tokensIn, tokensOut };
  if (req.producer) meta.producer = req.producer.slice(0, 256);
  const put = (yield { op: "put", original, meta }) as { stored: boolean; error?: unknown };
  if (!put.stored) return { ...pass("store_refused", r.kind, r.tokensIn, estimated), error: put.error };
  // The write is whole or absent; past the deadline the caller may already have moved on.
  if (c.expired?.()) return pass("deadline", r.kind, r.tokensIn, estimated);
  const kept: Kept = {
    kept: true,
    text: standIn(header, r.output),
    header,
    body: r.output,
    handle: original.handle,
    kind: r.kind,
    tokensIn: r.tokensIn,
    tokensOut,
    bodyTokens: r.tokensOut,
    ratio: Math.round((1 - tokensOut / r.tokensIn) * 10_000) / 10_000,
    lossless: r.lossless,
    estimated,
    ...(r.language ? { language: r.language } : {}),
  };
  try {
    c.onKept?.(kept);
  } catch {
    // A journal that cannot write costs its line, never the stand-in.
  }
  return kept;
}

/** Compress `req.text` and keep its original; see the contract at the top of this file. */
export async function keep(req: KeepRequest, deps: KeepDeps, signal?: AbortSignal): Promise<KeepOutcome> {
  const it = steps(req, deps);
  let next = it.next();
  while (!next.done) {
    const effect = next.value;
    let reply: Reply;
    if (effect.op === "run") reply = await deps.run(effect.input, effect.options, signal);
    else {
      try {
        await deps.store.put(effect.original, effect.meta);
        reply = { stored: true };
      } catch (error) {
        reply = { stored: false, error };
      }
    }
    next = it.next(reply);
  }
  return next.value;
}
