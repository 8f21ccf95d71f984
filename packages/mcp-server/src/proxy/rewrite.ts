// What the proxy changes in the wrapped server's answers, as functions on parsed messages.
// Contract: a function returns a new message only when it changed something, else null (and the
// relay then forwards the server's original bytes untouched). Errors stay exactly as the server
// wrote them. A successful `tools/call` result is shrunk in what the host shows the model: with
// `structuredContent`, that is the structured part (Claude Code shows its JSON and nothing else),
// so the text blocks (or, when they do not shrink, the structured JSON) are compressed and the
// stand-in replaces both the structured part and the text blocks (the wrapped
// tools' `outputSchema` is dropped from `tools/list`, so no client expects structured content);
// without it, each text block on its own, unless together they are over the host's limit: then
// they are one text, as the host would refuse them together. Every transform gets the result's
// budget (budget.ts), set from the size of what the host shows. In `tools/list`, a wrapped tool named like ours is
// renamed `<server>__caveman_retrieve` (its description says so) and the last page gains ours.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { type BudgetLimits, type ResultBudget, resultBudget } from "./budget.js";

/** Replaces one text of tool `toolName`'s result, within `budget`, or returns null to keep it. */
export type TextTransform = (
  toolName: string,
  text: string,
  budget: ResultBudget,
) => string | null | Promise<string | null>;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export async function rewriteCallResult(
  message: Obj,
  toolName: string,
  transform: TextTransform,
  limits: BudgetLimits = {},
): Promise<Obj | null> {
  const result = message.result;
  if (!isObj(result) || result.isError === true) return null;
  const texts = Array.isArray(result.content)
    ? result.content.flatMap((b: unknown) =>
        isObj(b) && b.type === "text" && typeof b.text === "string" ? [b.text] : [],
      )
    : [];
  const structured = isObj(result.structuredContent) ? JSON.stringify(result.structuredContent) : null;
  // What the host shows is what its limit is measured on: the structured JSON, else all the text.
  const whole = resultBudget(structured ?? texts.join("\n"), limits);
  if (structured !== null || whole.overHostLimit) {
    // The text blocks are the payload closest to raw data (a file's text, not its JSON string):
    // compress them when they are worth it, else the structured JSON itself.
    let next = texts.length > 0 ? await transform(toolName, texts.join("\n"), whole) : null;
    if (next === null && structured !== null) next = await transform(toolName, structured, whole);
    if (next === null) return null;
    const { structuredContent: _shown, ...rest } = result;
    const others = Array.isArray(result.content)
      ? result.content.filter((b: unknown) => !(isObj(b) && b.type === "text"))
      : [];
    return { ...message, result: { ...rest, content: [{ type: "text", text: next }, ...others] } };
  }
  if (!Array.isArray(result.content)) return null;
  let changed = false;
  const content: unknown[] = [];
  for (const block of result.content as unknown[]) {
    if (!isObj(block) || block.type !== "text" || typeof block.text !== "string") {
      content.push(block);
      continue;
    }
    const next = await transform(toolName, block.text, resultBudget(block.text, limits));
    if (next === null || next === block.text) content.push(block);
    else {
      changed = true;
      content.push({ ...block, text: next });
    }
  }
  return changed ? { ...message, result: { ...result, content } } : null;
}

/** The name a wrapped tool called like ours is listed under: `<server>__caveman_retrieve`. */
export function renamedTool(serverName: string, name: string): string {
  const safe = serverName.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 40) || "upstream";
  return `${safe}__${name}`;
}

/**
 * `tools/list` as the client should see it: no `outputSchema` on wrapped tools (results may be
 * shrunk), a wrapped tool named like ours renamed, and ours appended on the last page. Null when
 * nothing changed.
 */
export function rewriteToolList(message: Obj, ours: Tool, serverName: string): Obj | null {
  const result = message.result;
  if (!isObj(result) || !Array.isArray(result.tools)) return null;
  let changed = false;
  const tools = result.tools.map((t: unknown) => {
    if (!isObj(t)) return t;
    let tool = t;
    if ("outputSchema" in tool) {
      const { outputSchema: _dropped, ...rest } = tool;
      tool = rest;
      changed = true;
    }
    if (tool.name === ours.name) {
      const description = typeof tool.description === "string" ? ` ${tool.description}` : "";
      tool = {
        ...tool,
        name: renamedTool(serverName, ours.name),
        description: `(The wrapped server's own ${ours.name}, renamed by caveman-mcp proxy.)${description}`,
      };
      changed = true;
    }
    return tool;
  });
  const last = !(typeof result.nextCursor === "string" && result.nextCursor !== "");
  if (last) {
    tools.push(ours);
    changed = true;
  }
  return changed ? { ...message, result: { ...result, tools } } : null;
}
