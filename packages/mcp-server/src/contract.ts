// The result contract: what a tool hands back and how it goes on the wire. Contract: every
// `tools/call` result carries its whole payload in a form that a client reading only the text
// blocks and a client reading only `structuredContent` both receive in full. Hosts differ (Claude
// Code gives the model `JSON.stringify(structuredContent)` alone whenever it is present and drops
// the text), so a tool is one of two kinds and nothing in between:
//   - a text tool (no output schema) returns text blocks and never `structuredContent`;
//   - a data tool (an object output schema) returns one object; it goes out as `structuredContent`
//     and, unchanged, as the JSON of the only text block.
// Failures are always text (`code: message`), so the chip note appended to them reaches everyone.
// `shapeResult` is the only place a handler's outcome becomes a CallToolResult; an outcome of the
// wrong kind, or data its schema rejects, is refused here instead of reaching a client half-seen.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ZodObject } from "zod";

/** A text tool's result: the main text (kept byte-exact, e.g. a retrieved original) and short notes. */
export interface TextOutcome {
  text: string;
  /** Extra short text blocks after the main text: figures, handles, reasons, warnings. */
  notes?: string[];
  /** Exempt this result from the result size cap (retrieve: an original comes back whole). */
  uncapped?: boolean;
}

/** A data tool's result: the whole payload as one JSON object. */
export interface DataOutcome<D extends Record<string, unknown> = Record<string, unknown>> {
  data: D;
}

export type ToolOutcome = TextOutcome | DataOutcome;

/** A result that breaks the contract; the registry reports it as a server fault. */
export class ContractViolation extends Error {
  override readonly name = "ContractViolation";
}

/** A failure as the wire carries it: text only, the stable code first. */
export function errorResult(code: string, message: string): CallToolResult {
  return { content: [{ type: "text", text: `${code}: ${message}` }], isError: true };
}

export interface Shaped {
  result: CallToolResult;
  /** Bytes of payload the client receives (the text of a data result counts once). */
  bytes: number;
  uncapped: boolean;
}

/**
 * Turns a handler's outcome into the wire result for a tool with `output` (a data tool) or
 * without (a text tool). Throws `ContractViolation` when the outcome does not fit the tool's kind.
 */
export function shapeResult(tool: string, output: ZodObject | undefined, outcome: unknown): Shaped {
  if (outcome === null || typeof outcome !== "object")
    throw new ContractViolation(`${tool} returned ${outcome === null ? "null" : typeof outcome}`);
  const o = outcome as Partial<TextOutcome & DataOutcome>;
  if (output) {
    if (o.text !== undefined || o.notes !== undefined || o.data === null || typeof o.data !== "object")
      throw new ContractViolation(`${tool} has an output schema, so it must return { data } and no text`);
    const checked = output.safeParse(o.data);
    if (!checked.success)
      throw new ContractViolation(
        `${tool} returned data its output schema rejects: ${checked.error.message}`,
      );
    // The data itself (not the parsed copy, which would drop keys the schema does not list) is
    // the payload; its JSON is the text block, so both readings are the same bytes.
    const json = JSON.stringify(o.data);
    return {
      result: { content: [{ type: "text", text: json }], structuredContent: o.data },
      bytes: Buffer.byteLength(json, "utf8"),
      uncapped: false,
    };
  }
  if (o.data !== undefined || typeof o.text !== "string")
    throw new ContractViolation(`${tool} has no output schema, so it must return { text } and no data`);
  const notes = o.notes ?? [];
  if (!notes.every((n) => typeof n === "string"))
    throw new ContractViolation(`${tool} returned a note that is not text`);
  const blocks = [o.text, ...notes];
  return {
    result: { content: blocks.map((text) => ({ type: "text" as const, text })) },
    bytes: blocks.reduce((n, b) => n + Buffer.byteLength(b, "utf8"), 0),
    uncapped: o.uncapped === true,
  };
}

/** What a client that reads only the text blocks gets, joined. */
export function textReading(result: CallToolResult): string {
  return result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/**
 * What a client that reads only `structuredContent` gets, as Claude Code does it: the JSON of the
 * structured content when there is any, else the text blocks.
 */
export function structuredReading(result: CallToolResult): string {
  return result.structuredContent !== undefined
    ? JSON.stringify(result.structuredContent)
    : textReading(result);
}
