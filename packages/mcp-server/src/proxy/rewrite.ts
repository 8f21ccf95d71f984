// What the proxy changes in the wrapped server's answers, as pure functions on parsed messages.
// Contract: a function returns a new message only when it changed something, else null (and the
// relay then forwards the server's original bytes untouched). Only the text blocks of a successful
// `tools/call` result without `structuredContent` are rewritten — a host that shows structured
// content would never see our text, and an error stays exactly as the server wrote it — and only
// the last page of `tools/list` gains `caveman_retrieve`.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** Replaces one text block of tool `toolName`'s result, or returns null to keep it. */
export type TextTransform = (toolName: string, text: string) => string | null;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function rewriteCallResult(message: Obj, toolName: string, transform: TextTransform): Obj | null {
  const result = message.result;
  if (!isObj(result) || result.isError === true || "structuredContent" in result) return null;
  if (!Array.isArray(result.content)) return null;
  let changed = false;
  const content = result.content.map((block: unknown) => {
    if (!isObj(block) || block.type !== "text" || typeof block.text !== "string") return block;
    const next = transform(toolName, block.text);
    if (next === null || next === block.text) return block;
    changed = true;
    return { ...block, text: next };
  });
  return changed ? { ...message, result: { ...result, content } } : null;
}

/** `tools/list` with our retrieve tool appended; null when the server has one or more pages follow. */
export function addRetrieveTool(message: Obj, tool: Tool): { message: Obj | null; upstreamHasIt: boolean } {
  const result = message.result;
  if (!isObj(result) || !Array.isArray(result.tools)) return { message: null, upstreamHasIt: false };
  if (result.tools.some((t: unknown) => isObj(t) && t.name === tool.name))
    return { message: null, upstreamHasIt: true };
  if (typeof result.nextCursor === "string" && result.nextCursor !== "")
    return { message: null, upstreamHasIt: false };
  return {
    message: { ...message, result: { ...result, tools: [...result.tools, tool] } },
    upstreamHasIt: false,
  };
}
