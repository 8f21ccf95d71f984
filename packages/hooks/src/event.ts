// What both hosts' hook events share: the decision type, the opening checks of an event (an
// object, a tool name, the right event, a tool we may touch) and MCP text blocks in any form a host
// hands them over. Pure; never throws.
import { toolRefusal } from "./policy.js";
import type { HookSettings } from "./settings.js";

/** What to print (and the handles it cites), or why the original passes. */
export type HookDecision = { output: Record<string, unknown>; handles: string[] } | { pass: string };

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The event's tool name and input when this hook may handle it, else the pass reason. */
export function openEvent(
  event: unknown,
  eventName: string,
  settings: HookSettings,
): { event: Obj; toolName: string; input: Obj } | { pass: string } {
  if (!isObj(event) || typeof event.tool_name !== "string") return { pass: "input_invalid" };
  if (event.hook_event_name !== undefined && event.hook_event_name !== eventName)
    return { pass: "wrong_event" };
  const refusal = toolRefusal(event.tool_name, settings);
  if (refusal) return { pass: refusal };
  return { event, toolName: event.tool_name, input: isObj(event.tool_input) ? event.tool_input : {} };
}

/** Text blocks of an MCP result in any form a host hands over; null if any block is not text. */
export function mcpTexts(response: unknown): { texts: string[]; asString: boolean } | null {
  if (typeof response === "string") return { texts: [response], asString: true };
  const blocks = isObj(response) && Array.isArray(response.content) ? response.content : response;
  if (isObj(response) && "structuredContent" in response) return null;
  if (!Array.isArray(blocks) || blocks.length === 0) return null;
  const texts: string[] = [];
  for (const b of blocks) {
    if (!isObj(b) || b.type !== "text" || typeof b.text !== "string") return null;
    texts.push(b.text);
  }
  return { texts, asString: false };
}
