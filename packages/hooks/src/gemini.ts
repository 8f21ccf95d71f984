// Gemini CLI's AfterTool hook. Contract: from the hook's stdin object, return the object to print,
// or a pass reason. Gemini CLI (checked in 0.61.0) cannot overwrite a tool's result from AfterTool:
// its hook output honours `decision` (block: the result becomes an error), `additionalContext`
// (appended) and `tailToolCallRequest`, a tool call whose result *replaces* the original one. So
// the stand-in is stored in the CCR store as well, under its own handle, and the hook asks for a
// tail call of our MCP server's `caveman_retrieve` on that handle: the model receives the stand-in
// byte-exact, and the stand-in cites the original's handle. The tail call's own AfterTool is a
// retrieve, which the hooks never touch, so there is no loop. (Seen working in the real Gemini CLI
// 0.61.0: the model's functionResponse of the original call carried the stand-in.)

import { RETRIEVE_ARG, RETRIEVE_TOOL } from "@caveman/keep/note";
import { type HookDecision, isObj, mcpTexts, openEvent } from "./event.js";
import { hintForCommand, hintForPath, wantsRaw } from "./policy.js";
import { type HookContext, shrink } from "./shrink.js";

export interface GeminiOptions {
  /** Gemini's name of our retrieve tool: `mcp_<server>_caveman_retrieve` (server "caveman" by default). */
  retrieveTool: string;
}

export const DEFAULT_GEMINI_RETRIEVE_TOOL = `mcp_caveman_${RETRIEVE_TOOL}`;

function llmText(response: unknown): string | null {
  if (!isObj(response) || (response.error !== undefined && response.error !== null)) return null;
  const content = response.llmContent;
  if (typeof content === "string") return content;
  const blocks = mcpTexts(content);
  if (blocks) return blocks.texts.join("");
  // Gemini parts are `{text}` without a type.
  if (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((p) => isObj(p) && typeof p.text === "string" && Object.keys(p).length === 1)
  )
    return content.map((p) => (p as { text: string }).text).join("");
  return null;
}

/** Decide what Gemini CLI's AfterTool hook prints for this stdin object. Never throws on odd input. */
export async function geminiAfterTool(
  event: unknown,
  ctx: HookContext,
  options: GeminiOptions = { retrieveTool: DEFAULT_GEMINI_RETRIEVE_TOOL },
): Promise<HookDecision> {
  const opened = openEvent(event, "AfterTool", ctx.settings);
  if ("pass" in opened) return opened;
  const { toolName, input } = opened;
  const text = llmText(opened.event.tool_response);
  if (text === null) return { pass: "unexpected_shape" };
  let hint: string | undefined;
  let source: "read" | "output" = "output";
  let producer = toolName;
  if (toolName === "run_shell_command") {
    const command = typeof input.command === "string" ? input.command : "";
    if (wantsRaw(command, ctx.settings)) return { pass: "raw_requested" };
    hint = hintForCommand(command);
    producer = `run_shell_command: ${command}`;
  } else if (toolName === "read_file") {
    const path =
      typeof input.absolute_path === "string"
        ? input.absolute_path
        : typeof input.file_path === "string"
          ? input.file_path
          : "";
    hint = hintForPath(path) ?? "Read";
    source = "read";
    producer = `read_file: ${path}`;
  } else if (toolName === "search_file_content" || toolName === "grep_search") {
    hint = "grep";
  } else if (!toolName.startsWith("mcp_")) {
    return { pass: "unknown_tool" };
  }
  const r = await shrink({ text, ...(hint ? { hint } : {}), producer, source }, ctx);
  if ("pass" in r) return r;
  let standIn: string;
  try {
    standIn = await ctx.keepText(r.text, { kind: r.kind, producer: `stand-in for ${r.handle}` });
  } catch {
    return { pass: "store_failed" };
  }
  if (ctx.expired()) return { pass: "deadline" };
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: "AfterTool",
        tailToolCallRequest: { name: options.retrieveTool, args: { [RETRIEVE_ARG]: standIn } },
      },
    },
    handles: [r.handle, standIn],
  };
}
