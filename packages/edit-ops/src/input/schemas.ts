// The input schemas of every operation, in one place: the shape and types of each field. The
// `*Args` schemas are the tool arguments a server advertises (kept small: every byte of a tool
// list is paid on every agent call); the editor parses its input with the same schemas, widened
// by the few keys only library callers use (`new`, `keep_format`). What a schema cannot say —
// that a position in the path and in the fields agree, that a hash is hex, that content is
// text — is checked once after parsing, in fields.ts and requests.ts, with the error codes the
// tools report.

import { type core, z } from "zod";
import { EditError } from "../errors.js";

const line = z.number().int();
const guard = {
  preview: z.boolean().optional(),
  expected_hash: z.string().max(64).optional(),
};
/** Line edits may pin the lines they touch: read's range_hash of exactly those lines. */
const anchored = {
  ...guard,
  range_hash: z.string().max(64).optional().describe("be-read range hash of exactly the lines edited"),
};

export const readArgs = z.strictObject({
  path: z.string(),
  start_line: line.optional(),
  end_line: line.optional(),
  // Flat rather than a union of the three kinds: cheaper on the wire; fields.ts checks the combination.
  target: z
    .strictObject({
      kind: z.enum(["function", "tag", "marker"]),
      name: z.string().optional(),
      line: line.optional(),
      text: z.string().optional(),
    })
    .optional()
    .describe("function/tag by name or line; marker by text"),
  context: line.optional().describe("extra lines around target"),
});

export const writeArgs = z.strictObject({
  path: z.string(),
  content: z.string(),
  create_dirs: z.boolean().optional(),
  ...guard,
});

export const insertArgs = z.strictObject({
  path: z.string(),
  after_line: line.optional(),
  content: z.string(),
  ...anchored,
});

export const replaceArgs = z.strictObject({
  path: z.string(),
  start_line: line.optional(),
  end_line: line.optional(),
  old: z.string().optional(),
  content: z.string().optional(),
  ...anchored,
});

export const deleteArgs = z.strictObject({
  path: z.string(),
  start_line: line.optional(),
  end_line: line.optional(),
  all: z.boolean().optional().describe("whole file"),
  old: z.string().optional().describe("text the range must hold"),
  ...anchored,
});

const batchEditArgs = z.strictObject({
  start_line: line.optional(),
  end_line: line.optional(),
  after_line: line.optional(),
  old: z.string().optional(),
  content: z.string(),
  range_hash: anchored.range_hash,
});

export const batchArgs = z.strictObject({
  path: z.string(),
  edits: z.array(batchEditArgs),
  preview: guard.preview,
  expected_hash: guard.expected_hash,
});

export const undoArgs = z.strictObject({ path: z.string(), ...guard });

/** What the library accepts beyond the tool arguments. */
export const writeInput = writeArgs.extend({ keep_format: z.boolean().optional() });
export const replaceInput = replaceArgs.extend({ new: z.string().optional() });
const batchEditInput = batchEditArgs.extend({ content: z.string().optional(), new: z.string().optional() });
export const batchInput = batchArgs.extend({ edits: z.array(batchEditInput) });

/**
 * Inputs, as the schemas above define them (one definition: the editor parses with them
 * and a server registers them). Field meanings are in the README.
 */
export type ReadInput = z.input<typeof readArgs>;
export type WriteInput = z.input<typeof writeInput>;
export type InsertInput = z.input<typeof insertArgs>;
export type ReplaceInput = z.input<typeof replaceInput>;
export type DeleteInput = z.input<typeof deleteArgs>;
export type BatchInput = z.input<typeof batchInput>;
/** One edit of a batch. Positions refer to the file as it was before the batch. */
export type BatchEdit = BatchInput["edits"][number];
export type UndoInput = z.input<typeof undoArgs>;

/** Fields that hold a line number or count: a wrong one is `invalid_range`, as any bad position is. */
const LINE_FIELDS = new Set(["start_line", "end_line", "after_line", "line", "context"]);

/** Parse `input` for operation `what`, or throw the EditError a caller can act on. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) return r.data;
  const issue = r.error.issues[0] as core.$ZodIssue;
  const key = issue.path[issue.path.length - 1];
  const code = typeof key === "string" && LINE_FIELDS.has(key) ? "invalid_range" : "invalid_argument";
  throw new EditError(code, describe(issue, schema, what));
}

function describe(issue: core.$ZodIssue, schema: z.ZodType, what: string): string {
  const path = issue.path;
  const inEdit = path[0] === "edits" && typeof path[1] === "number";
  const owner = inEdit ? `batch edit ${(path[1] as number) + 1}` : what;
  const prefix = inEdit ? `${owner}: ` : "";
  const name = String(path[path.length - 1]);
  const got = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);
  switch (issue.code) {
    case "unrecognized_keys":
      return `unknown key "${issue.keys[0]}" for ${owner}; accepted keys: ${acceptedKeys(schema, path).join(", ")}`;
    case "invalid_type": {
      if (path.length === 0) return `${what} expects an object with: ${acceptedKeys(schema, []).join(", ")}`;
      if (issue.input === undefined) return `${prefix}\`${name}\` is required (a ${issue.expected})`;
      if (LINE_FIELDS.has(name))
        return `${prefix}\`${name}\` must be a whole line number, got ${JSON.stringify(issue.input)}`;
      if (issue.expected === "array")
        return `\`${name}\` must be an array of edits, not ${typeof issue.input === "string" ? "a JSON string" : got(issue.input)}`;
      const expected = issue.expected === "boolean" ? "true or false" : `a ${issue.expected}`;
      return `${prefix}\`${name}\` must be ${expected}, got ${got(issue.input)}`;
    }
    case "invalid_value":
      return `${path.join(".")} must be one of: ${issue.values.join(", ")} (got ${JSON.stringify(issue.input)})`;
    case "too_big":
      return `${prefix}\`${name}\` is too long (at most ${issue.maximum})`;
    default:
      return `${prefix}\`${name}\`: ${issue.message}`;
  }
}

/** The keys of the object the issue sits in (the operation's, a batch edit's or the target's). */
function acceptedKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType = schema;
  for (const step of path) {
    if (node instanceof z.ZodOptional) node = node.unwrap() as z.ZodType;
    if (node instanceof z.ZodObject && typeof step === "string") node = node.shape[step] as z.ZodType;
    else if (node instanceof z.ZodArray) node = node.element as z.ZodType;
  }
  if (node instanceof z.ZodOptional) node = node.unwrap() as z.ZodType;
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}
