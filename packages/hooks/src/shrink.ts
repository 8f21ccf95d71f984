// One text in, its stand-in out — or the reason it stays as it is. Contract: the hooks decide from
// the event alone (tool, size, settings) and leave the work to the injected `keep`
// (`@caveman/keep`, which the app loads only when there is something to compress), so a hook that
// passes never loads the engine, the tokenizer or a store. A stand-in is returned only when it is
// of a kind the caller may show and saves `minGain` of the tokens, header included; any store or
// engine failure is a pass reason, never a throw. A stand-in starts with its header line, so
// compressing it again passes (the host may run hooks twice).
import type { KeepOutcome, KeepRequest } from "@caveman/keep";
import { kindAllowed } from "./policy.js";
import type { HookSettings } from "./settings.js";
import type { WrapOptions } from "./wrap.js";

/** What every adapter needs to compress: settings, the injected keep, the hook's deadline. */
export interface HookContext {
  settings: HookSettings;
  /** Compress and keep (the app's store, engine and deadline behind it). */
  keep: (req: KeepRequest) => Promise<KeepOutcome>;
  /** Stores `text` as an original of its own and gives its handle (Gemini's stand-in). */
  keepText: (text: string, meta: { kind: string; producer: string }) => Promise<string>;
  /** True once the hook's time is up: nothing more is started and the original passes. */
  expired: () => boolean;
  /** Directories a host may persist large outputs in; a persisted path elsewhere is not read. */
  persistRoots: readonly string[];
  /** The session's roots: a data file Read cut short is read whole from disk only under them. */
  readRoots?: readonly string[];
  /** How a Bash command is put under `caveman-mcp run` (PreToolUse); unset: never wrapped. */
  wrap?: WrapOptions;
  /** The session's `MAX_MCP_OUTPUT_TOKENS` (budget.ts has the host's default). */
  mcpLimitTokens?: number;
}

export interface Shrunk {
  text: string;
  handle: string;
  kind: string;
  tokensIn: number;
  tokensOut: number;
}

export interface ShrinkRequest {
  text: string;
  /** Engine hint: a kind, or the producing command. */
  hint?: string;
  /** Stored as the original's producer (tool and command), for `caveman-mcp stats`. */
  producer: string;
  /** "read" for file reads (data kinds only), "output" for command and tool output. */
  source: "read" | "output";
  /** Most tokens the stand-in may cost, header included (budget.ts). */
  budget: number;
}

/** A store refusal as the hooks report it: `store_<code>` of the store's own error code. */
function storeReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return "store_failed";
  return code.startsWith("store_") ? code : `store_${code}`;
}

export async function shrink(req: ShrinkRequest, ctx: HookContext): Promise<Shrunk | { pass: string }> {
  const { settings } = ctx;
  if (Buffer.byteLength(req.text, "utf8") > settings.maxInputBytes) return { pass: "too_large" };
  // A token is at least one character, so fewer characters than the floor is below it: decided
  // without loading the tokenizer.
  if (req.text.length < settings.floorTokens) return { pass: "below_floor" };
  if (ctx.expired()) return { pass: "deadline" };
  const r = await ctx.keep({
    text: req.text,
    ...(req.hint ? { hint: req.hint } : {}),
    producer: req.producer,
    floorTokens: settings.floorTokens,
    budget: req.budget,
    minGain: settings.minGain,
    accept: (kind) => kindAllowed(kind, req.source),
  });
  if (!r.kept) return { pass: r.reason === "store_refused" ? storeReason(r.error) : r.reason };
  return { text: r.text, handle: r.handle, kind: r.kind, tokensIn: r.tokensIn, tokensOut: r.tokensOut };
}
