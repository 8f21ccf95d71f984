// The proxy's transform through `keep`: a result's text becomes a stand-in within the result's
// budget (budget.ts), its original stored first. Contract: null (the text passes) whenever keep
// passes, the tool is refused, or the text is over the input cap. Under the host's limit the
// caller's rules hold (floor, least gain, the kinds it accepts); over it the host would show the
// model only an error stub, so any kind is accepted and any gain is worth it: a stand-in within
// the stub's cost always beats the stub.
import { type Kept, keep, type OriginalSink, type Runner } from "@caveman/keep";
import type { TextTransform } from "./rewrite.js";

export interface KeepTransformOptions {
  run: Runner;
  store: OriginalSink;
  /** Texts of fewer tokens pass (the engine's default when unset). */
  floorTokens?: number;
  /** Least share of tokens a stand-in must save under the host's limit. */
  minGain?: number;
  /** Texts over this many UTF-8 bytes pass. */
  maxInputBytes?: number;
  /** True when a tool's results must pass untouched. */
  refuse?: (tool: string) => boolean;
  /** Whether a kind may stand in under the host's limit (all kinds when unset). */
  accept?: (kind: string) => boolean;
  /** Told of every stand-in, by tool (the savings journal). */
  onKept?: (tool: string) => (kept: Kept) => void;
}

export function keepTransform(o: KeepTransformOptions): TextTransform {
  return async (tool, text, budget) => {
    if (o.refuse?.(tool)) return null;
    if (o.maxInputBytes !== undefined && Buffer.byteLength(text, "utf8") > o.maxInputBytes) return null;
    const over = budget.overHostLimit;
    const r = await keep(
      {
        text,
        producer: tool,
        budget: budget.tokens,
        ...(o.floorTokens !== undefined ? { floorTokens: o.floorTokens } : {}),
        ...(!over && o.minGain !== undefined ? { minGain: o.minGain } : {}),
        ...(!over && o.accept ? { accept: o.accept } : {}),
      },
      { run: o.run, store: o.store, ...(o.onKept ? { onKept: o.onKept(tool) } : {}) },
    );
    return r.kept ? r.text : null;
  };
}
