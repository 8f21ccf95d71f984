// The tool registry. Contract: a tool is a name, a family, a short description, a strict zod
// input schema, annotations, a handler, and — only for a data tool — an object output schema.
// `listTools` renders the compact wire form (JSON Schema without `$schema`); `callTool` validates
// the raw arguments itself (so an unknown key names itself and the accepted ones), runs the
// handler, and turns every outcome — success, domain error, panic — into a CallToolResult through
// the result contract (`contract.ts`), so no tool can send a payload that one kind of client
// would not see. It never throws.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { type core, type ZodObject, type ZodType, z } from "zod";
import {
  ContractViolation,
  type DataOutcome,
  errorResult,
  type Shaped,
  shapeResult,
  type TextOutcome,
} from "./contract.js";
import type { Logger } from "./logger.js";
import { toWireError } from "./wire/errorMap.js";

/** `retrieve` is `caveman_retrieve` alone: hook and proxy setups compress outside the model's calls. */
export type ToolFamily = "compress" | "edit" | "retrieve";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
}

export interface ToolContext {
  signal: AbortSignal;
}

interface ToolSpecBase<S extends ZodObject> {
  name: string;
  family: ToolFamily;
  description: string;
  input: S;
  annotations: ToolAnnotations;
}

/** A text tool: its result is text blocks only, never `structuredContent`. The usual kind. */
export interface TextToolSpec<S extends ZodObject = ZodObject> extends ToolSpecBase<S> {
  output?: undefined;
  run(args: z.output<S>, ctx: ToolContext): TextOutcome | Promise<TextOutcome>;
}

/** A data tool: its whole result is one object matching `output`, sent as structured content and as its JSON text. */
export interface DataToolSpec<S extends ZodObject = ZodObject, O extends ZodObject = ZodObject>
  extends ToolSpecBase<S> {
  output: O;
  run(args: z.output<S>, ctx: ToolContext): DataOutcome<Payload<O>> | Promise<DataOutcome<Payload<O>>>;
}

/** The schema lists the fields a caller chains on; the payload may carry more. */
type Payload<O extends ZodObject> = z.output<O> & Record<string, unknown>;

export type ToolSpec = TextToolSpec | DataToolSpec;

/** Type-checks a spec against its own schemas while storing it in a homogeneous list. */
export function defineTool<S extends ZodObject>(spec: TextToolSpec<S>): ToolSpec;
export function defineTool<S extends ZodObject, O extends ZodObject>(spec: DataToolSpec<S, O>): ToolSpec;
export function defineTool(spec: TextToolSpec | DataToolSpec): ToolSpec {
  return checkSpec(spec as ToolSpec);
}

/** Refuses a spec the result contract cannot serve (also for specs built without `defineTool`). */
function checkSpec(spec: ToolSpec): ToolSpec {
  if (spec.output !== undefined && !(spec.output instanceof z.ZodObject))
    throw new TypeError(
      `${spec.name}: an output schema must be an object schema (structured content is an object)`,
    );
  return spec;
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
    for (const t of options.tools) {
      if (this.#tools.has(t.name)) throw new TypeError(`two tools are named ${t.name}`);
      this.#tools.set(t.name, checkSpec(t));
    }
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
    let shaped: Shaped;
    try {
      shaped = shapeResult(name, tool.output, await tool.run(parsed.data, ctx));
    } catch (err) {
      const wire = err instanceof ContractViolation ? undefined : toWireError(err);
      if (wire) return errorResult(wire.code, wire.message);
      const detail = err instanceof Error ? err.message : String(err);
      this.#logger.error(`tool ${name} panicked: ${err instanceof Error && err.stack ? err.stack : detail}`);
      return errorResult(
        "cave_tool_panicked",
        `${name} failed unexpectedly (${detail}); the server is still running`,
      );
    }
    if (!shaped.uncapped && shaped.bytes > this.#maxResultBytes) {
      return errorResult(
        "cave_result_too_large",
        `${name} produced ${shaped.bytes} bytes, over the ${this.#maxResultBytes}-byte result cap; ask for less (a range, a query)`,
      );
    }
    return shaped.result;
  }
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
