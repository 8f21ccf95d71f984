// createEditor: the public object behind the be-* tools. Each method checks its input, resolves
// the path inside the roots, and (for edits) runs under a per-path lock: load one snapshot,
// check `expected_hash`, plan, splice, diff, then write atomically and journal — or, in
// preview, stop before writing. Any error leaves the file byte-identical.

import { randomBytes } from "node:crypto";
import { type Anchor, checkAnchored } from "./anchor.js";
import { bool, checkKeys, expectedHash, position, str } from "./args.js";
import { EditError } from "./errors.js";
import { checkAllText, contentSize, noPosition, parseBatchEdit, positive, replacement } from "./inputs.js";
import { createMutator } from "./mutate.js";
import { parsePathSpec } from "./pathspec.js";
import { timed } from "./phases.js";
import { emptyPlan, insertEdit, rangeEdit, textEdit, tooLong } from "./plan.js";
import { parseRead, readLines } from "./read.js";
import { openRoots, resolvePath } from "./roots.js";
import { Snapshots } from "./snapshots.js";
import { type StoreDeps, withLoaded } from "./store.js";
import { encode } from "./text.js";
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
import { writeOp } from "./write.js";

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
const GUARD = ["path", "preview", "expected_hash"] as const;
/** Line edits may also pin the lines they touch with `range_hash` (see anchor.ts). */
const ANCHORED = [...GUARD, "range_hash"] as const;

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
  const deps: StoreDeps = {
    roots,
    maxFileBytes: positive(options.maxFileBytes, 64 * 1024 * 1024, "maxFileBytes"),
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

  const { guarded, applyPlan, finish, locks } = createMutator({ roots, deps, io, maxDiffBytes });

  return {
    roots: roots.map((r) => r.given),

    async read(input) {
      const { path, req } = parseRead(input);
      const at = await resolvePath(path, roots);
      return withLoaded(deps, at, { mustExist: true, lock: false }, async (loaded) =>
        readLines(loaded.doc!, loaded.bytes!, at.path, req, {
          maxLines: maxReadLines,
          maxBytes: maxReadBytes,
        }),
      );
    },

    async write(input) {
      const rec = checkKeys(input, [...GUARD, "content", "create_dirs", "keep_format"], "write");
      const path = parsePathSpec(str(rec, "path", true));
      if (path.start_line !== undefined || path.all) {
        throw new EditError(
          "invalid_argument",
          "write replaces the whole file; remove the line position from the path",
        );
      }
      const content = str(rec, "content", true);
      contentSize(content, deps.maxFileBytes);
      const createDirs = bool(rec, "create_dirs") ?? false;
      const keepFormat = bool(rec, "keep_format") ?? true;
      return guarded(rec, path.path, false, async (loaded, preview) => {
        const w = writeOp(loaded, content, keepFormat);
        return finish(
          "write",
          loaded,
          w.after,
          encode(w.after),
          w.changes,
          w.removed,
          preview,
          w.warnings,
          createDirs,
        );
      });
    },

    async insert(input) {
      const rec = checkKeys(input, [...ANCHORED, "after_line", "content"], "insert");
      const rangeHash = expectedHash(rec, "range_hash");
      const pos = position(rec, "after_line", "after_line");
      if (pos.all)
        throw new EditError("invalid_range", "insert needs a line to insert after (0 = top), not ALL");
      if (pos.start === undefined) {
        throw new EditError(
          "invalid_range",
          "insert needs `after_line` (0 = top of the file) or a `path:N` position",
        );
      }
      if (pos.end !== pos.start)
        throw new EditError("invalid_range", "insert takes one line number, not a range");
      const content = str(rec, "content", true);
      contentSize(content, deps.maxFileBytes);
      return guarded(rec, pos.path, true, async (loaded, preview, moved) => {
        const plan = emptyPlan();
        insertEdit(plan, loaded.doc!, loaded.at.path, pos.start!, content, 0, anchorOf(rangeHash, moved));
        return applyPlan("insert", loaded, plan, preview);
      });
    },

    async replace(input) {
      const rec = checkKeys(
        input,
        [...ANCHORED, "start_line", "end_line", "old", "content", "new"],
        "replace",
      );
      const rangeHash = expectedHash(rec, "range_hash");
      const pos = position(rec);
      const old = str(rec, "old");
      const content = replacement(rec);
      contentSize(content, deps.maxFileBytes);
      return guarded(rec, pos.path, true, async (loaded, preview, moved) => {
        const doc = loaded.doc!;
        const plan = emptyPlan();
        const anchor = anchorOf(rangeHash, moved);
        timed("plan", () => {
          if (pos.all) {
            if (old !== undefined) checkAllText(doc, old, loaded.at.path);
            if (anchor) checkAnchored(doc, 1, doc.lines.length, anchor, loaded.at.path);
            if (doc.lines.length === 0) insertEdit(plan, doc, loaded.at.path, 0, content, 0);
            else rangeEdit(plan, doc, loaded.at.path, 1, doc.lines.length, content, undefined, 0);
          } else if (pos.start !== undefined) {
            rangeEdit(plan, doc, loaded.at.path, pos.start, pos.end!, content, old, 0, anchor);
          } else if (old !== undefined) {
            textEdit(plan, doc, loaded.at.path, old, content, 0, anchor);
          } else {
            throw noPosition("replace");
          }
        });
        return applyPlan("replace", loaded, plan, preview);
      });
    },

    async delete(input) {
      const rec = checkKeys(input, [...ANCHORED, "start_line", "end_line", "all", "old"], "delete");
      const rangeHash = expectedHash(rec, "range_hash");
      const pos = position(rec);
      const old = str(rec, "old");
      if (!pos.all && pos.start === undefined) throw noPosition("delete");
      return guarded(rec, pos.path, true, async (loaded, preview, moved) => {
        const doc = loaded.doc!;
        const plan = emptyPlan();
        const anchor = anchorOf(rangeHash, moved);
        if (pos.all) {
          if (old !== undefined) checkAllText(doc, old, loaded.at.path);
          if (anchor) checkAnchored(doc, 1, doc.lines.length, anchor, loaded.at.path);
          if (doc.lines.length > 0)
            rangeEdit(plan, doc, loaded.at.path, 1, doc.lines.length, "", undefined, 0);
        } else {
          rangeEdit(plan, doc, loaded.at.path, pos.start!, pos.end!, "", old, 0, anchor);
        }
        return applyPlan("delete", loaded, plan, preview);
      });
    },

    async batch(input) {
      const rec = checkKeys(input, [...GUARD, "edits"], "batch");
      const path = parsePathSpec(str(rec, "path", true));
      if (path.start_line !== undefined || path.all) {
        throw new EditError(
          "invalid_argument",
          "batch positions go in each edit; remove the position from the path",
        );
      }
      const edits = rec.edits;
      if (!Array.isArray(edits)) {
        throw new EditError(
          "invalid_argument",
          `\`edits\` must be an array of edits, not ${typeof edits === "string" ? "a JSON string" : typeof edits}`,
        );
      }
      if (edits.length === 0)
        throw new EditError("invalid_argument", "`edits` is empty; give at least one edit");
      if (edits.length > MAX_BATCH) throw tooLong(edits.length, MAX_BATCH);
      const parsed = edits.map((e, i) => parseBatchEdit(e, i));
      // Each content is checked alone and the sizes summed: joining them first could build a
      // string far past the limit (or past V8's) before the check could refuse it.
      let total = 0;
      for (const e of parsed) {
        contentSize(e.content, deps.maxFileBytes);
        total += Buffer.byteLength(e.content);
      }
      if (total > deps.maxFileBytes) {
        throw new EditError(
          "too_large",
          `the batch's content totals ${total} bytes, over the ${deps.maxFileBytes}-byte limit; split it`,
        );
      }
      return guarded(rec, path.path, true, async (loaded, preview, moved) => {
        const doc = loaded.doc!;
        const plan = emptyPlan();
        parsed.forEach((e, i) => {
          const where = `edit ${i + 1}: `;
          const anchor = anchorOf(e.rangeHash, moved);
          try {
            if (e.after !== undefined) insertEdit(plan, doc, loaded.at.path, e.after, e.content, i, anchor);
            else if (e.start !== undefined)
              rangeEdit(plan, doc, loaded.at.path, e.start, e.end!, e.content, e.old, i, anchor);
            else textEdit(plan, doc, loaded.at.path, e.old!, e.content, i, anchor);
          } catch (err) {
            if (err instanceof EditError)
              throw new EditError(err.code, where + err.message, err.details, { cause: err });
            throw err;
          }
        });
        return applyPlan("batch", loaded, plan, preview);
      });
    },

    async undo(input) {
      const rec = checkKeys(input, [...GUARD], "undo");
      const path = parsePathSpec(str(rec, "path", true));
      if (path.start_line !== undefined || path.all) {
        // Undo restores the whole file as it was before its last edit; a position would be ignored.
        throw new EditError(
          "invalid_range",
          `undo takes no line position: it restores the whole file as it was before its last edit; give ${path.path} alone`,
        );
      }
      const preview = bool(rec, "preview") ?? false;
      const expected = expectedHash(rec);
      const at = await resolvePath(path.path, roots);
      return locks.run(at.real, () => undoOp({ deps, io, maxDiffBytes }, at, preview, expected));
    },
  };
}
