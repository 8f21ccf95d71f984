// Undo: restore the bytes the newest journal entry of a file records, only when the file is
// still byte-identical to what that edit left (otherwise `conflict`, nothing written). Undoing
// a creation deletes the file. An undo is not itself journaled; the entry is dropped once the
// restored bytes are on disk. The journal is consulted before the bytes are decoded, so a file
// that was never edited is `nothing_to_undo` whatever it holds (a binary file included).

import { commit } from "./disk/commit.js";
import { prepareUndo } from "./disk/journal.js";
import { checkExpected, type FileDeps, withFile } from "./disk/load.js";
import { processLocks } from "./disk/lock.js";
import { type ResolvedPath, resolvePath } from "./disk/roots.js";
import { lineChange } from "./doc/diff.js";
import { decode, emptyDoc, joinLines, sha256 } from "./doc/lines.js";
import type { UndoRequest } from "./input/requests.js";
import { origin } from "./plan/plan.js";
import { buildResult } from "./result.js";
import type { EditResult } from "./types.js";

export interface UndoContext {
  deps: FileDeps;
  io: { randomHex: () => string; now: () => number };
  maxDiffBytes: number;
}

/** Resolve the path, take the per-path lock, and undo the file's newest journaled edit. */
export async function undoOp(ctx: UndoContext, req: UndoRequest): Promise<EditResult> {
  const at = await resolvePath(req.path, ctx.deps.roots);
  return processLocks.run(at.real, () => undoLoaded(ctx, at, req));
}

function undoLoaded(ctx: UndoContext, at: ResolvedPath, req: UndoRequest): Promise<EditResult> {
  const { preview } = req;
  return withFile(ctx.deps, at, { mode: "bytes-or-none", lock: !preview }, async (file) => {
    checkExpected(file, req.expectedHash);
    // Matches the entry's after_hash, so these are the (text) bytes our own edit wrote.
    const pending = await prepareUndo(ctx.deps.journal, at.real, at.path, file.bytes, !preview);
    const current = decode(pending.current, at.path);
    const after = pending.before ? decode(pending.before, at.path) : emptyDoc();
    const change = lineChange(current, after) ?? { oldStart: 0, oldEnd: 0, newStart: 0, newEnd: 0 };
    const removedText = joinLines(current.lines, current.eols, change.oldStart, change.oldEnd);
    const removed =
      change.oldEnd > change.oldStart
        ? [{ text: removedText, origin: origin(at.path, change.oldStart + 1, change.oldEnd) }]
        : [];
    const warnings: string[] = [];
    if (pending.skipped.length > 0) {
      // Without this, undoing an edit that was reverted by hand would silently reach one further back.
      const n = pending.skipped.length;
      warnings.push(
        `${n === 1 ? "the newest edit" : `the newest ${n} edits`} of this file (${pending.skipped.join(", ")}) ` +
          `${n === 1 ? "is" : "are"} not in it (never written, or reverted since); this undoes the one before`,
      );
    }
    if (!preview) {
      warnings.push(
        ...(await commit(ctx.deps, file, pending.before, { op: "undo", journal: false, ...ctx.io })),
      );
      await pending.commit();
      ctx.deps.snapshots.forget(at.real);
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
      oldHash: file.hash,
      hash: pending.before ? sha256(pending.before) : null,
      warnings,
      maxDiffBytes: ctx.maxDiffBytes,
    });
  });
}
