// The shared path of the mutating operations but undo (undo.ts): resolve inside the roots, take
// the per-path lock, load one snapshot, check `expected_hash`, then plan (the operation's own
// part, plan/), splice, encode, diff and warn, and write atomically and journal unless this is a
// preview. Nothing is written before every check passed.

import { commit } from "./disk/commit.js";
import { checkExpected, type FileDeps, type NoFile, type TextFile, withFile } from "./disk/load.js";
import { processLocks } from "./disk/lock.js";
import { type Root, resolvePath } from "./disk/roots.js";
import { balanceWarnings, checksFor, compareTallies, TallyCache, tally, tallyBytes } from "./doc/balance.js";
import { type ByteSplice, encodeSpliced } from "./doc/bytesplice.js";
import type { Change } from "./doc/diff.js";
import { type Doc, docText, dominantEol, emptyDoc, encode, lineEndingStyle } from "./doc/lines.js";
import { rehash } from "./doc/rehash.js";
import { decodesTo } from "./doc/snapshots.js";
import { splice } from "./doc/splice.js";
import { EditError } from "./errors.js";
import type { EditRequest, WriteRequest } from "./input/requests.js";
import { timed } from "./phases.js";
import { emptyPlan, type Plan } from "./plan/plan.js";
import { writeOp } from "./plan/write.js";
import { buildResult } from "./result.js";
import type { EditResult } from "./types.js";

export interface MutatorContext {
  roots: Root[];
  deps: FileDeps;
  io: { randomHex: () => string; now: () => number };
  maxDiffBytes: number;
}

/** The operations that edit lines of an existing file through a plan. */
type LineOp = "insert" | "replace" | "delete" | "batch";

/** A whole new content for a file, with what the caller knows about how it differs. */
interface Outcome {
  op: EditResult["op"];
  file: TextFile | NoFile;
  after: Doc;
  next: Buffer;
  changes: Change[];
  removed: EditResult["removed"];
  preview: boolean;
  warnings: string[];
  createDirs?: boolean;
  /** The byte splices from the file's bytes to `next`, when known. */
  splices?: ByteSplice[];
  /** `after` is exactly what decoding `next` gives, so it may serve the next edit (doc/snapshots.ts). */
  reusable?: boolean;
}

export function createMutator({ roots, deps, io, maxDiffBytes }: MutatorContext) {
  const tallies = new TallyCache();

  /**
   * Edit the lines of an existing file: `build` (an operation of plan/operations.ts) fills a plan
   * made against the loaded snapshot, which is then spliced, encoded and finished. When every
   * edit carries a `range_hash`, the range hashes decide whether a changed file may still be
   * edited, and `expected_hash` only tells them whether the file moved (`plan.moved`). One edit
   * without a range hash keeps the whole-file check: it has nothing else to stand on.
   */
  const edit = async (op: LineOp, req: EditRequest, build: (plan: Plan) => void): Promise<EditResult> => {
    const at = await resolvePath(req.path, roots);
    return processLocks.run(at.real, () =>
      withFile(deps, at, { mode: "text", lock: !req.preview }, async (file) => {
        const moved = req.expectedHash === undefined ? null : !file.hash.startsWith(req.expectedHash);
        if (!req.anchored) checkExpected(file, req.expectedHash);
        const before = file.doc;
        const plan = emptyPlan(before, file.at.path, moved);
        timed("plan", () => build(plan));
        const {
          doc: after,
          placed,
          from,
        } = timed("plan", () =>
          splice(before, plan.regions, plan.emptyFinalNewline, plan.contentCrlf ? "\r\n" : "\n"),
        );
        const changes = plan.regions.map((r, i) => ({
          oldStart: r.start,
          oldEnd: r.end,
          newStart: placed[i]?.start ?? r.start,
          newEnd: placed[i]?.end ?? r.start,
        }));
        const warnings: string[] = [];
        if (plan.contentCrlf && lineEndingStyle(before) !== "none" && dominantEol(before) === "\n") {
          warnings.push("the content's CRLF line endings were written as LF to match the file");
        }
        const next = timed("plan", () => encodeSpliced(before, file.bytes, after, from));
        return finish({
          op,
          file,
          after,
          next: next.bytes,
          changes,
          removed: plan.removed,
          preview: req.preview,
          warnings,
          splices: next.splices,
          reusable: decodesTo(after, from),
        });
      }),
    );
  };

  /** Create or overwrite a whole file (plan/write.ts makes its new lines). */
  const write = async (req: WriteRequest): Promise<EditResult> => {
    const at = await resolvePath(req.path, roots);
    return processLocks.run(at.real, () =>
      withFile(deps, at, { mode: "text-or-none", lock: !req.preview }, async (file) => {
        checkExpected(file, req.expectedHash);
        const w = writeOp(
          { path: file.at.path, doc: file.exists ? file.doc : null },
          req.content,
          req.keepFormat,
        );
        return finish({
          op: "write",
          file,
          after: w.after,
          next: encode(w.after),
          changes: w.changes,
          removed: w.removed,
          preview: req.preview,
          warnings: w.warnings,
          createDirs: req.createDirs,
        });
      }),
    );
  };

  const finish = async (o: Outcome): Promise<EditResult> => {
    const { file, next, after, preview, warnings } = o;
    if (next.length > deps.maxFileBytes) {
      // The file could not be read or edited again once written: refuse now, nothing written.
      throw new EditError(
        "too_large",
        `the edit would make ${file.at.path} ${next.length} bytes, over the ${deps.maxFileBytes}-byte limit; nothing was written`,
        { path: file.at.path },
      );
    }
    const changed = !file.exists || !next.equals(file.bytes);
    const written = changed && !preview;
    const hash =
      !changed && file.exists
        ? file.hash
        : timed("hash", () => rehash(file.at.real, file.hash, next, samePrefix(o.splices), !preview));
    const before = file.exists ? file.doc : emptyDoc();
    const balance = changed && file.exists ? checkBalance(file, after, o.changes) : null;
    if (balance) warnings.push(...balance.warnings);
    if (written) {
      warnings.push(
        ...(await commit(deps, file, next, {
          op: o.op,
          createDirs: o.createDirs ?? false,
          journal: true,
          hash,
          ...(o.splices ? { splices: o.splices } : {}),
          ...io,
        })),
      );
      if (balance) tallies.remember(file.at.real, hash, balance.after);
      if (o.reusable) deps.snapshots.remember(file.at.real, next, hash, { ...after, source: next });
      else deps.snapshots.forget(file.at.real);
    }
    return timed("diff", () =>
      buildResult({
        op: o.op,
        path: file.at.path,
        display: file.at.display,
        before,
        after,
        changes: changed ? o.changes : [],
        removed: changed ? o.removed : [],
        preview,
        written,
        changed,
        created: !file.exists,
        deleted: false,
        oldHash: file.hash,
        hash,
        warnings,
        maxDiffBytes,
      }),
    );
  };

  /** Bytes at the start of the new file known to be the old file's: up to the first splice. */
  const samePrefix = (splices: ByteSplice[] | undefined): number => {
    const first = splices?.[0];
    return first ? Math.min(first.at, first.oldStart) : 0;
  };

  /** Balance warnings; the whole-file tally is remembered per file hash, so repeat edits skip it. */
  const checkBalance = (file: TextFile, after: Doc, changes: Change[]) => {
    const checks = checksFor(file.at.display);
    if (!checks.pairs && !checks.tags) return null;
    let whole = tallies.get(file.at.real, file.hash);
    if (!whole) {
      whole = tallyBytes(file.bytes, checks.tags);
      tallies.remember(file.at.real, file.hash, whole);
    }
    if (checks.tags) {
      const next = tally(docText(after), true);
      return { warnings: compareTallies(file.at.display, whole, next), after: next };
    }
    const before = file.doc;
    const out = changes.map((c) => before.lines.slice(c.oldStart, c.oldEnd).join("\n")).join("\n");
    const into = changes.map((c) => after.lines.slice(c.newStart, c.newEnd).join("\n")).join("\n");
    return balanceWarnings(file.at.display, whole, out, into);
  };

  return { edit, write };
}
