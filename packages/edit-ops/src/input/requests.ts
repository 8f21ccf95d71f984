// Each operation's parsed input becomes one typed request: the field checks of fields.ts put
// together per operation, in the order their errors are reported. A request says what to do;
// plan/ says what that does to the lines of a snapshot, and disk/ does it. Nothing here touches
// a file, so every refusal here comes before the file is even resolved.

import { EditError } from "../errors.js";
import {
  contentSize,
  type Guard,
  guardOf,
  hashArg,
  noPosition,
  type Position,
  positionOf,
  replacement,
  targetOf,
  wholeFile,
} from "./fields.js";
import { parsePathSpec } from "./pathspec.js";
import type {
  BatchEdit,
  BatchInput,
  DeleteInput,
  InsertInput,
  ReadInput,
  ReplaceInput,
  UndoInput,
  WriteInput,
} from "./schemas.js";
import type { Target } from "./targets.js";

const MAX_BATCH = 1000;

/** A request to edit the lines of an existing file: which file, and how it is guarded. */
export interface EditRequest extends Guard {
  path: string;
  /** Every edit carries a range_hash, which then stands in for expected_hash (mutator.ts). */
  anchored: boolean;
}

export interface InsertRequest extends EditRequest {
  after: number;
  content: string;
  rangeHash: string | undefined;
}

export interface ReplaceRequest extends EditRequest {
  position: Position;
  old: string | undefined;
  content: string;
  rangeHash: string | undefined;
}

export interface DeleteRequest extends EditRequest {
  position: Position;
  old: string | undefined;
  rangeHash: string | undefined;
}

/** One batch edit, its kind decided. */
type PlannedEdit =
  | { kind: "range"; start: number; end: number; content: string; old?: string; rangeHash?: string }
  | { kind: "insert"; after: number; content: string; rangeHash?: string }
  | { kind: "text"; old: string; content: string; rangeHash?: string };

export interface BatchRequest extends EditRequest {
  edits: PlannedEdit[];
}

export interface WriteRequest extends Guard {
  path: string;
  content: string;
  keepFormat: boolean;
  createDirs: boolean;
}

export interface UndoRequest extends Guard {
  path: string;
}

export interface ReadRequest {
  start?: number;
  end?: number;
  all: boolean;
  target?: Target;
  context: number;
}

export function writeRequest(args: WriteInput, maxBytes: number): WriteRequest {
  const path = wholeFile(
    args.path,
    "invalid_argument",
    "write replaces the whole file; remove the line position from the path",
  );
  contentSize(args.content, maxBytes);
  return {
    ...guardOf(args),
    path,
    content: args.content,
    keepFormat: args.keep_format ?? true,
    createDirs: args.create_dirs ?? false,
  };
}

export function insertRequest(args: InsertInput, maxBytes: number): InsertRequest {
  const rangeHash = hashArg(args.range_hash, "range_hash");
  const pos = positionOf(args, "after_line", "after_line");
  if (pos.all) throw new EditError("invalid_range", "insert needs a line to insert after (0 = top), not ALL");
  const after = pos.start;
  if (after === undefined) {
    throw new EditError(
      "invalid_range",
      "insert needs `after_line` (0 = top of the file) or a `path:N` position",
    );
  }
  if (pos.end !== after) throw new EditError("invalid_range", "insert takes one line number, not a range");
  contentSize(args.content, maxBytes);
  return { ...oneEdit(args, pos.path, rangeHash), after, content: args.content };
}

/** A replace by range, by `ALL`, or by exact `old` text; which one is decided against the file. */
export function replaceRequest(args: ReplaceInput, maxBytes: number): ReplaceRequest {
  const rangeHash = hashArg(args.range_hash, "range_hash");
  const position = positionOf(args);
  const content = replacement(args);
  contentSize(content, maxBytes);
  return { ...oneEdit(args, position.path, rangeHash), position, old: args.old, content };
}

export function deleteRequest(args: DeleteInput): DeleteRequest {
  const rangeHash = hashArg(args.range_hash, "range_hash");
  const position = positionOf(args);
  if (!position.all && (position.start === undefined || position.end === undefined))
    throw noPosition("delete");
  return { ...oneEdit(args, position.path, rangeHash), position, old: args.old };
}

/** What a single line edit carries besides its position: the guard, and its range hash if any. */
function oneEdit(
  args: { preview?: boolean | undefined; expected_hash?: string | undefined },
  path: string,
  rangeHash: string | undefined,
) {
  return { ...guardOf(args), path, anchored: rangeHash !== undefined, rangeHash };
}

export function batchRequest(args: BatchInput, maxBytes: number): BatchRequest {
  const path = wholeFile(
    args.path,
    "invalid_argument",
    "batch positions go in each edit; remove the position from the path",
  );
  if (args.edits.length === 0)
    throw new EditError("invalid_argument", "`edits` is empty; give at least one edit");
  if (args.edits.length > MAX_BATCH) {
    throw new EditError(
      "too_large",
      `a batch holds at most ${MAX_BATCH} edits, got ${args.edits.length}; split it`,
    );
  }
  const edits = args.edits.map(batchEditOf);
  // Each content is checked alone and the sizes summed: joining them first could build a
  // string far past the limit (or past V8's) before the check could refuse it.
  let total = 0;
  for (const e of edits) {
    contentSize(e.content, maxBytes);
    total += Buffer.byteLength(e.content);
  }
  if (total > maxBytes) {
    throw new EditError(
      "too_large",
      `the batch's content totals ${total} bytes, over the ${maxBytes}-byte limit; split it`,
    );
  }
  const anchored = edits.every((e) => e.rangeHash !== undefined);
  return { ...guardOf(args), path, anchored, edits };
}

function batchEditOf(e: BatchEdit, i: number): PlannedEdit {
  const what = `batch edit ${i + 1}`;
  const content = replacement(e);
  const rangeHash = hashArg(e.range_hash, "range_hash");
  const hash = rangeHash !== undefined ? { rangeHash } : {};
  if (e.after_line !== undefined) {
    if (e.start_line !== undefined || e.end_line !== undefined || e.old !== undefined) {
      throw new EditError(
        "invalid_argument",
        `${what}: after_line inserts; do not combine it with start_line, end_line or old`,
      );
    }
    return { kind: "insert", after: e.after_line, content, ...hash };
  }
  if (e.end_line !== undefined && e.start_line === undefined)
    throw new EditError("invalid_range", `${what}: end_line without start_line`);
  if (e.start_line !== undefined) {
    const old = e.old !== undefined ? { old: e.old } : {};
    return { kind: "range", start: e.start_line, end: e.end_line ?? e.start_line, content, ...old, ...hash };
  }
  if (e.old !== undefined) return { kind: "text", old: e.old, content, ...hash };
  throw new EditError(
    "invalid_range",
    `${what} has no position: give start_line[/end_line], after_line, or old`,
  );
}

export function undoRequest(args: UndoInput): UndoRequest {
  // Undo restores the whole file as it was before its last edit; a position would be ignored.
  const path = wholeFile(
    args.path,
    "invalid_range",
    "undo takes no line position: it restores the whole file as it was before its last edit; give {path} alone",
  );
  return { ...guardOf(args), path };
}

/** A read's range or target. Positions in the path and in the fields must agree; a target excludes a range. */
export function readRequest(args: ReadInput): { path: string; req: ReadRequest } {
  const spec = parsePathSpec(args.path);
  const fieldStart = args.start_line;
  const fieldEnd = args.end_line;
  if ((fieldStart !== undefined || fieldEnd !== undefined) && (spec.all || spec.start_line !== undefined)) {
    const same =
      !spec.all &&
      (fieldStart ?? spec.start_line) === spec.start_line &&
      (fieldEnd ?? spec.end_line) === spec.end_line;
    if (!same) {
      const inPath = spec.all ? "ALL" : `lines ${spec.start_line}-${spec.end_line}`;
      const inFields = `${fieldStart ?? "?"}-${fieldEnd ?? fieldStart ?? "?"}`;
      throw new EditError(
        "invalid_range",
        `the path says ${inPath} but the fields say ${inFields}; give one`,
      );
    }
  }
  // An end alone reads from the top; it must never be dropped in favour of the whole file.
  const start = spec.start_line ?? fieldStart ?? (fieldEnd !== undefined ? 1 : undefined);
  const end = spec.start_line !== undefined ? spec.end_line : fieldEnd;
  const context = args.context ?? 0;
  if (context < 0) throw new EditError("invalid_range", "`context` must be 0 or more lines");
  const target = args.target === undefined ? undefined : targetOf(args.target);
  if (target && (start !== undefined || spec.all)) {
    throw new EditError("invalid_argument", "give a `target` or a line range, not both");
  }
  return {
    path: spec.path,
    req: {
      ...(start !== undefined ? { start } : {}),
      ...(end !== undefined ? { end } : {}),
      all: spec.all === true,
      context,
      ...(target ? { target } : {}),
    },
  };
}
