// One text in, its compressed stand-in out — or the reason it stays as it is. Contract: the
// original is in the CCR store under the handle the text cites before a stand-in is returned; a
// stand-in is returned only when it is of a kind the caller may show, saves `minGain` of the tokens
// (its recovery line included), and the time budget still holds; any store or engine failure is a
// pass reason, never a throw. The closing recovery line is a marker line, so compressing a
// stand-in again passes it through (the host may run hooks twice).
import { type CcrStore, isCcrStoreError, prepareOriginal } from "@caveman/ccr-store";
import { compress, countTokens } from "@caveman/engine";
import { kindAllowed, toolRefusal } from "./policy.js";
import type { HookSettings } from "./settings.js";

/** What every adapter needs to compress: settings, a lazily opened store, a deadline. */
export interface HookContext {
  settings: HookSettings;
  /** Opens (or returns) the CCR store; called only when something is about to be stored. */
  store: () => CcrStore;
  /** Epoch ms after which nothing more is started and the original passes. */
  deadline: number;
  clock: () => number;
  /** Directories a host may persist large outputs in; a persisted path elsewhere is not read. */
  persistRoots: readonly string[];
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
}

/** The line closing every stand-in: how to get the original back. */
export function recoveryLine(kind: string, tokensIn: number, tokensOut: number, handle: string): string {
  return `[caveman: ${kind} output compressed, ${tokensIn} -> ${tokensOut} tokens; the original is kept: call caveman_retrieve with recovery_handle "${handle}" (add query "lines:a-b" or search words for part of it)]`;
}

export function shrink(req: ShrinkRequest, ctx: HookContext): Shrunk | { pass: string } {
  const { settings } = ctx;
  if (Buffer.byteLength(req.text, "utf8") > settings.maxInputBytes) return { pass: "too_large" };
  if (ctx.clock() > ctx.deadline) return { pass: "deadline" };
  // Encoded and hashed once: the stand-in cites this handle, and the store keeps the same bytes.
  const original = prepareOriginal(req.text);
  const { handle } = original;
  // No handle for the engine: the recovery line names it once; markers naming it too cost tokens.
  const result = compress(req.text, {
    floorTokens: settings.floorTokens,
    ...(req.hint ? { hint: req.hint } : {}),
  });
  if (result.reason !== undefined || result.output === req.text)
    return { pass: result.reason ?? "not_smaller" };
  if (!kindAllowed(result.kind, req.source)) return { pass: `kind_${result.kind}` };
  const line = recoveryLine(result.kind, result.tokensIn, result.tokensOut, handle);
  const tokensOut = result.tokensOut + countTokens(line) + 1;
  if (tokensOut > result.tokensIn * (1 - settings.minGain)) return { pass: "gain_below_min" };
  if (ctx.clock() > ctx.deadline) return { pass: "deadline" };
  try {
    ctx.store().put(original, {
      kind: result.kind,
      producer: req.producer.slice(0, 256),
      tokensIn: result.tokensIn,
      tokensOut,
    });
  } catch (err) {
    const code = isCcrStoreError(err) ? err.code : "failed";
    return { pass: code.startsWith("store_") ? code : `store_${code}` };
  }
  // The store write is whole or absent; past the deadline the host may already have moved on.
  if (ctx.clock() > ctx.deadline) return { pass: "deadline" };
  const sep = result.output.endsWith("\n") ? "" : "\n";
  return {
    text: `${result.output}${sep}${line}`,
    handle,
    kind: result.kind,
    tokensIn: result.tokensIn,
    tokensOut,
  };
}

/**
 * A wrapped MCP server's text block, as the proxy sees it: the stand-in, or null to keep the text.
 * The same tool rules as the hooks apply (our own tools are never touched, allow/deny, off).
 */
export function shrinkToolText(toolName: string, text: string, ctx: HookContext): string | null {
  if (toolRefusal(toolName, ctx.settings)) return null;
  const r = shrink({ text, producer: toolName, source: "output" }, ctx);
  return "pass" in r ? null : r.text;
}
