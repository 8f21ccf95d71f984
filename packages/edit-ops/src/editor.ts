// createEditor: the public object behind the be-* tools. Each method parses its input once with
// the operation's schema (input/schemas.ts) and turns it into a request (input/requests.ts);
// then the mutator resolves the path inside the roots and, under a per-path lock, loads one
// snapshot, checks `expected_hash`, plans (plan/), splices, diffs, and writes atomically and
// journals (disk/) — or, in preview, stops before writing. Read and undo take their own short
// paths (read.ts, undo.ts). Any error leaves the file byte-identical.

import { constants } from "node:buffer";
import { randomBytes } from "node:crypto";
import { withFile } from "./disk/load.js";
import { openRoots, resolvePath } from "./disk/roots.js";
import { Snapshots } from "./doc/snapshots.js";
import { EditError } from "./errors.js";
import { positive } from "./input/fields.js";
import {
  batchRequest,
  deleteRequest,
  insertRequest,
  readRequest,
  replaceRequest,
  undoRequest,
  writeRequest,
} from "./input/requests.js";
import {
  type BatchInput,
  batchInput,
  type DeleteInput,
  deleteArgs,
  type InsertInput,
  insertArgs,
  parseInput,
  type ReadInput,
  type ReplaceInput,
  readArgs,
  replaceInput,
  type UndoInput,
  undoArgs,
  type WriteInput,
  writeInput,
} from "./input/schemas.js";
import { createMutator } from "./mutator.js";
import { batchOp, deleteOp, insertOp, replaceOp } from "./plan/operations.js";
import { readLines } from "./read.js";
import type { EditorOptions, EditResult, ReadResult } from "./types.js";
import { undoOp } from "./undo.js";

/**
 * Every method parses its input object with the operation's schema (input/schemas.ts), so input from
 * JSON is checked whatever its static type; unknown keys are refused, naming the accepted ones.
 */
export interface Editor {
  readonly roots: readonly string[];
  read(input: ReadInput): Promise<ReadResult>;
  write(input: WriteInput): Promise<EditResult>;
  insert(input: InsertInput): Promise<EditResult>;
  replace(input: ReplaceInput): Promise<EditResult>;
  delete(input: DeleteInput): Promise<EditResult>;
  batch(input: BatchInput): Promise<EditResult>;
  undo(input: UndoInput): Promise<EditResult>;
}

export function createEditor(options: EditorOptions): Editor {
  const roots = openRoots(options.roots);
  if (typeof options.journalDir !== "string" || options.journalDir === "") {
    throw new EditError(
      "invalid_argument",
      "createEditor needs `journalDir`, a directory for the undo journal",
    );
  }
  const now = options.clock ?? Date.now;
  const random = options.random ?? ((n: number) => randomBytes(n));
  const randomHex = () => Buffer.from(random(8)).toString("hex").padEnd(16, "0").slice(0, 16);
  const maxReadLines = positive(options.maxReadLines, 2000, "maxReadLines");
  const maxReadBytes = positive(options.maxReadBytes, 100 * 1024, "maxReadBytes");
  const maxDiffBytes = positive(options.maxDiffBytes, 64 * 1024, "maxDiffBytes");
  const deps = {
    roots,
    // A file is decoded into one string: past the longest string Node can hold, decoding would
    // throw a bare RangeError instead of refusing the file as too_large.
    maxFileBytes: positive(
      options.maxFileBytes,
      64 * 1024 * 1024,
      "maxFileBytes",
      constants.MAX_STRING_LENGTH,
    ),
    lockTimeoutMs: positive(options.lockTimeoutMs, 10_000, "lockTimeoutMs"),
    randomHex,
    snapshots: new Snapshots(),
    journal: {
      dir: options.journalDir,
      depth: positive(options.journalDepth, 20, "journalDepth"),
      randomHex,
      now,
    },
  };
  const io = { randomHex, now };
  const mutator = createMutator({ roots, deps, io, maxDiffBytes });
  const maxBytes = deps.maxFileBytes;

  return {
    roots: roots.map((r) => r.given),

    async read(input) {
      const { path, req } = readRequest(parseInput(readArgs, input, "read"));
      const at = await resolvePath(path, roots);
      return withFile(deps, at, { mode: "text", lock: false }, async (file) =>
        readLines(file.doc, file.bytes, at.path, req, { maxLines: maxReadLines, maxBytes: maxReadBytes }),
      );
    },

    async write(input) {
      return mutator.write(writeRequest(parseInput(writeInput, input, "write"), maxBytes));
    },

    async insert(input) {
      const req = insertRequest(parseInput(insertArgs, input, "insert"), maxBytes);
      return mutator.edit("insert", req, (plan) => insertOp(plan, req));
    },

    async replace(input) {
      const req = replaceRequest(parseInput(replaceInput, input, "replace"), maxBytes);
      return mutator.edit("replace", req, (plan) => replaceOp(plan, req));
    },

    async delete(input) {
      const req = deleteRequest(parseInput(deleteArgs, input, "delete"));
      return mutator.edit("delete", req, (plan) => deleteOp(plan, req));
    },

    async batch(input) {
      const req = batchRequest(parseInput(batchInput, input, "batch"), maxBytes);
      return mutator.edit("batch", req, (plan) => batchOp(plan, req));
    },

    async undo(input) {
      return undoOp({ deps, io, maxDiffBytes }, undoRequest(parseInput(undoArgs, input, "undo")));
    },
  };
}
