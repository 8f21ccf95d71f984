// createEditor: the public object behind the be-* tools. Each method parses its input once with
// the operation's schema (schemas.ts) and turns it into a request (requests.ts), resolves the
// path inside the roots, and (for edits) runs under a per-path lock: load one snapshot, check
// `expected_hash`, plan, splice, diff, then write atomically and journal — or, in preview, stop
// before writing. Any error leaves the file byte-identical.

import { constants } from "node:buffer";
import { randomBytes } from "node:crypto";
import { withFile } from "./disk/load.js";
import { processLocks } from "./disk/lock.js";
import { openRoots, resolvePath } from "./disk/roots.js";
import { encode } from "./doc/lines.js";
import { Snapshots } from "./doc/snapshots.js";
import { EditError } from "./errors.js";
import {
  batchEditOf,
  contentSize,
  guardOf,
  hashArg,
  noPosition,
  positionOf,
  positive,
  replacement,
  wholeFile,
} from "./input/requests.js";
import {
  batchInput,
  deleteArgs,
  insertArgs,
  parseInput,
  readArgs,
  replaceInput,
  undoArgs,
  writeInput,
} from "./input/schemas.js";
import { createMutator } from "./mutator.js";
import type { Anchor } from "./plan/anchor.js";
import { insertEdit, rangeEdit, textEdit, wholeEdit } from "./plan/plan.js";
import { writeOp } from "./plan/write.js";
import { parseRead, readLines } from "./read.js";
import type {
  BatchInput,
  DeleteInput,
  EditorOptions,
  EditResult,
  InsertInput,
  ReadInput,
  ReadResult,
  ReplaceInput,
  UndoInput,
  WriteInput,
} from "./types.js";
import { undoOp } from "./undo.js";

/**
 * Every method parses its input object with the operation's schema (schemas.ts), so input from
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

const MAX_BATCH = 1000;

function anchorOf(hash: string | undefined, moved: boolean | null): Anchor | undefined {
  return hash === undefined ? undefined : { hash, moved };
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
  const { editFile, writeFile, applyPlan, finish } = createMutator({ roots, deps, io, maxDiffBytes });

  return {
    roots: roots.map((r) => r.given),

    async read(input) {
      const { path, req } = parseRead(parseInput(readArgs, input, "read"));
      const at = await resolvePath(path, roots);
      return withFile(deps, at, { mode: "text", lock: false }, async (file) =>
        readLines(file.doc, file.bytes, at.path, req, { maxLines: maxReadLines, maxBytes: maxReadBytes }),
      );
    },

    async write(input) {
      const args = parseInput(writeInput, input, "write");
      const path = wholeFile(
        args.path,
        "invalid_argument",
        "write replaces the whole file; remove the line position from the path",
      );
      contentSize(args.content, deps.maxFileBytes);
      const guard = guardOf(args);
      return writeFile({ ...guard, path }, async (file) => {
        const w = writeOp(file, args.content, args.keep_format ?? true);
        return finish({
          op: "write",
          file,
          after: w.after,
          next: encode(w.after),
          changes: w.changes,
          removed: w.removed,
          preview: guard.preview,
          warnings: w.warnings,
          createDirs: args.create_dirs ?? false,
        });
      });
    },

    async insert(input) {
      const args = parseInput(insertArgs, input, "insert");
      const rangeHash = hashArg(args.range_hash, "range_hash");
      const pos = positionOf(args, "after_line", "after_line");
      if (pos.all)
        throw new EditError("invalid_range", "insert needs a line to insert after (0 = top), not ALL");
      const after = pos.start;
      if (after === undefined) {
        throw new EditError(
          "invalid_range",
          "insert needs `after_line` (0 = top of the file) or a `path:N` position",
        );
      }
      if (pos.end !== after)
        throw new EditError("invalid_range", "insert takes one line number, not a range");
      contentSize(args.content, deps.maxFileBytes);
      const t = { ...guardOf(args), path: pos.path, anchored: rangeHash !== undefined };
      return editFile(t, (file, moved) =>
        applyPlan("insert", file, t.preview, (plan) =>
          insertEdit(plan, { after, content: args.content, index: 0, anchor: anchorOf(rangeHash, moved) }),
        ),
      );
    },

    async replace(input) {
      const args = parseInput(replaceInput, input, "replace");
      const rangeHash = hashArg(args.range_hash, "range_hash");
      const pos = positionOf(args);
      const { old } = args;
      const content = replacement(args);
      contentSize(content, deps.maxFileBytes);
      const t = { ...guardOf(args), path: pos.path, anchored: rangeHash !== undefined };
      const { start, end } = pos;
      return editFile(t, (file, moved) =>
        applyPlan("replace", file, t.preview, (plan) => {
          const anchor = anchorOf(rangeHash, moved);
          if (pos.all) wholeEdit(plan, content, old, anchor);
          else if (start !== undefined && end !== undefined)
            rangeEdit(plan, { start, end, content, old, index: 0, anchor });
          else if (old !== undefined) textEdit(plan, { old, content, index: 0, anchor });
          else throw noPosition("replace");
        }),
      );
    },

    async delete(input) {
      const args = parseInput(deleteArgs, input, "delete");
      const rangeHash = hashArg(args.range_hash, "range_hash");
      const pos = positionOf(args);
      const { start, end } = pos;
      if (!pos.all && (start === undefined || end === undefined)) throw noPosition("delete");
      const t = { ...guardOf(args), path: pos.path, anchored: rangeHash !== undefined };
      return editFile(t, (file, moved) =>
        applyPlan("delete", file, t.preview, (plan) => {
          const anchor = anchorOf(rangeHash, moved);
          if (pos.all) wholeEdit(plan, null, args.old, anchor);
          else if (start !== undefined && end !== undefined)
            rangeEdit(plan, { start, end, content: "", old: args.old, index: 0, anchor });
        }),
      );
    },

    async batch(input) {
      const args = parseInput(batchInput, input, "batch");
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
        contentSize(e.content, deps.maxFileBytes);
        total += Buffer.byteLength(e.content);
      }
      if (total > deps.maxFileBytes) {
        throw new EditError(
          "too_large",
          `the batch's content totals ${total} bytes, over the ${deps.maxFileBytes}-byte limit; split it`,
        );
      }
      const anchored = edits.every((e) => e.rangeHash !== undefined);
      const t = { ...guardOf(args), path, anchored };
      return editFile(t, (file, moved) =>
        applyPlan("batch", file, t.preview, (plan) => {
          edits.forEach((e, index) => {
            const anchor = anchorOf(e.rangeHash, moved);
            try {
              if (e.kind === "insert") insertEdit(plan, { ...e, index, anchor });
              else if (e.kind === "range") rangeEdit(plan, { ...e, index, anchor });
              else textEdit(plan, { ...e, index, anchor });
            } catch (err) {
              if (err instanceof EditError)
                throw new EditError(err.code, `edit ${index + 1}: ${err.message}`, err.details, {
                  cause: err,
                });
              throw err;
            }
          });
        }),
      );
    },

    async undo(input) {
      const args = parseInput(undoArgs, input, "undo");
      // Undo restores the whole file as it was before its last edit; a position would be ignored.
      const path = wholeFile(
        args.path,
        "invalid_range",
        "undo takes no line position: it restores the whole file as it was before its last edit; give {path} alone",
      );
      const guard = guardOf(args);
      const at = await resolvePath(path, roots);
      return processLocks.run(at.real, () => undoOp({ deps, io, maxDiffBytes }, at, guard));
    },
  };
}
