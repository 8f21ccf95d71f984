// Undo: restore the bytes the newest journal entry of a file records, only when the file is
// still byte-identical to what that edit left (otherwise `conflict`, nothing written). Undoing
// a creation deletes the file. An undo is not itself journaled; the entry is dropped once the
// restored bytes are on disk.

import { EditError } from "./errors.js";
import { prepareUndo } from "./journal.js";
import { origin } from "./plan.js";
import { buildResult, lineChange } from "./result.js";
import type { ResolvedPath } from "./roots.js";
import { checkExpected, commit, load, type StoreDeps } from "./store.js";
import { decode, emptyDoc, joinLines, sha256 } from "./text.js";
import type { EditResult } from "./types.js";

export interface UndoContext {
  deps: StoreDeps;
  io: { randomHex: () => string; now: () => number };
  maxDiffBytes: number;
}

export async function undoOp(
  ctx: UndoContext,
  at: ResolvedPath,
  preview: boolean,
  expected: string | undefined,
): Promise<EditResult> {
  const loaded = await load(ctx.deps, at, false).catch((err: unknown) => {
    // A file turned binary since the edit still gets an honest "changed" answer from prepareUndo.
    if (err instanceof EditError && (err.code === "binary_file" || err.code === "unsupported_encoding")) {
      throw new EditError(
        "conflict",
        `${at.path} changed since the last edit (${err.message}); nothing was written`,
        {
          path: at.path,
        },
      );
    }
    throw err;
  });
  checkExpected(loaded, expected);
  const pending = await prepareUndo(ctx.deps.journal, at.real, at.path, loaded.bytes);
  const current = loaded.doc!;
  const after = pending.before ? decode(pending.before, at.path) : emptyDoc();
  const change = lineChange(current, after) ?? { oldStart: 0, oldEnd: 0, newStart: 0, newEnd: 0 };
  const removedText = joinLines(current.lines, current.eols, change.oldStart, change.oldEnd);
  const removed =
    change.oldEnd > change.oldStart
      ? [{ text: removedText, origin: origin(at.path, change.oldStart + 1, change.oldEnd) }]
      : [];
  const warnings: string[] = [];
  if (!preview) {
    if (pending.before) {
      warnings.push(
        ...(await commit(ctx.deps, loaded, pending.before, { op: "undo", journal: false, ...ctx.io })),
      );
    } else {
      await commit(ctx.deps, loaded, null, { op: "undo", journal: false, ...ctx.io });
    }
    await pending.commit();
  }
  return buildResult({
    op: "undo",
    path: at.path,
    display: at.display,
    before: current,
    after,
    changes: [change],
    removed,
    preview,
    written: !preview,
    changed: true,
    created: false,
    deleted: pending.before === null,
    oldHash: loaded.hash,
    hash: pending.before ? sha256(pending.before) : null,
    warnings,
    maxDiffBytes: ctx.maxDiffBytes,
  });
}
