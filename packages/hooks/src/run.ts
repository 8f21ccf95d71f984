// One hook call from raw stdin text to the text to print. Contract: never throws; malformed JSON,
// an unknown host event, a tool we do not know or any fault is a pass — `stdout` is then empty and
// the host keeps its original output. A non-empty `stdout` is one complete JSON object and newline.

import { claudeCodePostToolUse } from "./claudeCode.js";
import type { HookDecision } from "./event.js";
import { type GeminiOptions, geminiAfterTool } from "./gemini.js";
import type { HookContext } from "./shrink.js";
import { claudeCodePreToolUse } from "./wrap.js";

export type HookHost = "claude-code" | "gemini";

export interface HookRun {
  /** What to print on stdout: "" (pass) or one JSON object line. */
  stdout: string;
  /** Why the original passed, or "compressed". */
  reason: string;
  handles: string[];
}

export async function runHook(
  host: HookHost,
  stdinText: string,
  ctx: HookContext,
  gemini?: GeminiOptions,
): Promise<HookRun> {
  let decision: HookDecision;
  try {
    let event: unknown;
    try {
      event = JSON.parse(stdinText);
    } catch {
      return { stdout: "", reason: "input_invalid", handles: [] };
    }
    const pre = (event as { hook_event_name?: unknown } | null)?.hook_event_name === "PreToolUse";
    decision =
      host === "claude-code"
        ? pre
          ? claudeCodePreToolUse(event, ctx.settings, ctx.wrap)
          : await claudeCodePostToolUse(event, ctx)
        : gemini
          ? await geminiAfterTool(event, ctx, gemini)
          : { pass: "no_gemini_temp_root" };
  } catch (err) {
    return {
      stdout: "",
      reason: `internal_error: ${err instanceof Error ? err.message : String(err)}`,
      handles: [],
    };
  }
  if ("pass" in decision) return { stdout: "", reason: decision.pass, handles: [] };
  return { stdout: `${JSON.stringify(decision.output)}\n`, reason: "compressed", handles: decision.handles };
}
