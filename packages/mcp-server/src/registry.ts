// The tool registry. Contract: a tool is a name, a family, a short description, a strict zod
// input schema, optional output schema and annotations, and a handler. `listTools` renders the
// compact wire form (JSON Schema without `$schema`); `callTool` validates the raw arguments itself
// (so an unknown key names itself and the accepted ones), runs the handler, and turns every
// outcome — success, domain error, panic — into a CallToolResult. It never throws.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { type core, type ZodObject, type ZodType, z } from "zod";
import type { Logger } from "./logger.js";
import { toWireError } from "./wire/errorMap.js";

/** `retrieve` is `caveman_retrieve` alone: hook and proxy setups compress outside the model's calls. */
export type ToolFamily = "compress" | "edit" | "retrieve";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

/** What a handler returns: always a text, plus structured content for tools with an output schema. */
export interface ToolOutcome {
  text: string;
  structured?: Record<string, unknown>;
  /** Extra short text blocks after the main text (which stays byte-exact when it is an original). */
  notes?: string[];
  /** Exempt this result from the result size cap (retrieve). */
  uncapped?: boolean;
}

export interface ToolContext {
  signal: AbortSignal;
}

export interface ToolSpec<S extends ZodObject = ZodObject> {
  name: string;
  family: ToolFamily;
  description: string;
  input: S;
  output?: ZodType;
  annotations: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): ToolOutcome | Promise<ToolOutcome>;
}

/** Type-checks a spec against its own schema while storing it in a homogeneous list. */
export function defineTool<S extends ZodObject>(spec: ToolSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}

export interface RegistryOptions {
  tools: ToolSpec[];
  logger: Logger;
  maxResultBytes: number;
}

export class ToolRegistry {
  readonly #tools = new Map<string, ToolSpec>();
  readonly #logger: Logger;
  readonly #maxResultBytes: number;
  #listCache: Tool[] | undefined;

  constructor(options: RegistryOptions) {
    for (const t of options.tools) this.#tools.set(t.name, t);
    this.#logger = options.logger;
    this.#maxResultBytes = options.maxResultBytes;
  }

  get names(): string[] {
    return [...this.#tools.keys()];
  }

  listTools(): Tool[] {
    this.#listCache ??= [...this.#tools.values()].map(renderTool);
    return this.#listCache;
  }

  async callTool(name: string, rawArgs: unknown, ctx: ToolContext): Promise<CallToolResult> {
    const tool = this.#tools.get(name);
    if (!tool) {
      return errorResult("cave_unknown_tool", `no tool named "${name}"; available: ${this.names.join(", ")}`);
    }
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      return errorResult(
        "cave_invalid_arguments",
        `${name}: ${describeIssues(parsed.error.issues, tool.input)}`,
      );
    }
    let outcome: ToolOutcome;
    try {
      outcome = await tool.run(parsed.data, ctx);
    } catch (err) {
      const wire = toWireError(err);
      if (wire) return errorResult(wire.code, wire.message);
      const detail = err instanceof Error ? err.message : String(err);
      this.#logger.error(`tool ${name} panicked: ${err instanceof Error && err.stack ? err.stack : detail}`);
      return errorResult(
        "cave_tool_panicked",
        `${name} failed unexpectedly (${detail}); the server is still running`,
      );
    }
    const bytes = Buffer.byteLength(outcome.text, "utf8");
    if (!outcome.uncapped && bytes > this.#maxResultBytes) {
      return errorResult(
        "cave_result_too_large",
        `${name} produced ${bytes} bytes, over the ${this.#maxResultBytes}-byte result cap; ask for less (a range, a query)`,
      );
    }
    const result: CallToolResult = { content: [{ type: "text", text: outcome.text }] };
    for (const note of outcome.notes ?? []) result.content.push({ type: "text", text: note });
    if (outcome.structured) result.structuredContent = outcome.structured;
    return result;
  }
}

/** A tool failure as the wire carries it: the code starts the text. */
export function errorResult(code: string, message: string): CallToolResult {
  return { content: [{ type: "text", text: `${code}: ${message}` }], isError: true };
}

function renderTool(spec: ToolSpec): Tool {
  const tool: Tool = {
    name: spec.name,
    description: spec.description,
    inputSchema: compactSchema(spec.input) as Tool["inputSchema"],
    // Per the MCP spec the destructive/idempotent hints mean nothing on a read-only tool.
    annotations: spec.annotations.readOnlyHint ? { readOnlyHint: true } : spec.annotations,
  };
  if (spec.output) tool.outputSchema = compactSchema(spec.output) as Tool["outputSchema"];
  return tool;
}

function compactSchema(schema: ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return prune(json) as Record<string, unknown>;
}

/** Drops schema bounds that say nothing a model needs (every byte of tools/list is paid per call). */
function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "maximum" && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === "minimum" && v === Number.MIN_SAFE_INTEGER) continue;
    // Length caps are enforced (and explained) by validation; advertising them costs every call.
    if (k === "maxLength") continue;
    out[k] = prune(v);
  }
  return out;
}

function describeIssues(issues: core.$ZodIssue[], schema: ZodObject): string {
  const accepted = Object.keys(schema.shape);
  return issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        const keys = issue.keys.map((k) => `"${k}"`).join(", ");
        return `unknown key ${keys}; accepted: ${accepted.join(", ") || "none"}`;
      }
      const where = issue.path.length ? `"${issue.path.join(".")}"` : "arguments";
      if (issue.code === "invalid_type" && issue.message.endsWith("received undefined"))
        return `${where} is required`;
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}
