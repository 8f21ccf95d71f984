// The shared path of every mutating operation: resolve inside the roots, take the per-path
// lock, load one snapshot, check `expected_hash`, then splice, encode, diff and warn, and write
// atomically and journal unless this is a preview. Nothing is written before every check passed.

import { bool, expectedHash } from "./args.js";
import { balanceWarnings, checksFor, compareTallies, TallyCache, tally, tallyBytes } from "./balance.js";
import type { Change } from "./diff.js";
import { EditError } from "./errors.js";
import { processLocks } from "./lock.js";
import { timed } from "./phases.js";
import type { Plan } from "./plan.js";
import { rehash } from "./rehash.js";
import { buildResult } from "./result.js";
import { type Root, resolvePath } from "./roots.js";
import { decodesTo } from "./snapshots.js";
import { splice } from "./splice.js";
import { checkExpected, commit, type Loaded, type StoreDeps, withLoaded } from "./store.js";
import {
  type ByteSplice,
  type Doc,
  docText,
  dominantEol,
  emptyDoc,
  encode,
  encodeSpliced,
  lineEndingStyle,
} from "./text.js";
import type { EditResult } from "./types.js";

export interface MutatorContext {
  roots: Root[];
  deps: StoreDeps;
  io: { randomHex: () => string; now: () => number };
  maxDiffBytes: number;
}

export function createMutator({ roots, deps, io, maxDiffBytes }: MutatorContext) {
  const locks = processLocks;
  const tallies = new TallyCache();

  /**
   * When every edit carries a `range_hash`, the range hashes decide whether a changed file may
   * still be edited, and `expected_hash` only tells them whether the file moved (`fn`'s third
   * argument: true/false, or null when no expected_hash was given). One edit without a range hash
   * keeps the whole-file check: it has nothing else to stand on.
   */
  const guarded = async (
    rec: Record<string, unknown>,
    path: string,
    mustExist: boolean,
    fn: (loaded: Loaded, preview: boolean, moved: boolean | null) => Promise<EditResult>,
  ): Promise<EditResult> => {
    const anchored =
      typeof rec.range_hash === "string" ||
      (Array.isArray(rec.edits) &&
        rec.edits.length > 0 &&
        rec.edits.every((e) => typeof (e as { range_hash?: unknown } | null)?.range_hash === "string"));
    const preview = bool(rec, "preview") ?? false;
    const expected = expectedHash(rec);
    const at = await resolvePath(path, roots);
    return locks.run(at.real, () =>
      withLoaded(deps, at, { mustExist, lock: !preview }, async (loaded) => {
        const moved = expected === undefined ? null : !loaded.hash?.startsWith(expected);
        if (!anchored || loaded.hash === null) checkExpected(loaded, expected);
        return fn(loaded, preview, moved);
      }),
    );
  };

  /** Apply a plan to the loaded document and write (unless preview). */
  const applyPlan = async (
    op: EditResult["op"],
    loaded: Loaded,
    plan: Plan,
    preview: boolean,
  ): Promise<EditResult> => {
    const before = loaded.doc!;
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
      newStart: placed[i]!.start,
      newEnd: placed[i]!.end,
    }));
    const warnings: string[] = [];
    if (plan.contentCrlf && lineEndingStyle(before) !== "none" && dominantEol(before) === "\n") {
      warnings.push("the content's CRLF line endings were written as LF to match the file");
    }
    if (!loaded.bytes)
      return finish(op, loaded, after, encode(after), changes, plan.removed, preview, warnings);
    const bytes = loaded.bytes;
    const next = timed("plan", () => encodeSpliced(before, bytes, after, from));
    return finish(
      op,
      loaded,
      after,
      next.bytes,
      changes,
      plan.removed,
      preview,
      warnings,
      false,
      next.splices,
      decodesTo(after, from),
    );
  };

  const finish = async (
    op: EditResult["op"],
    loaded: Loaded,
    after: Doc,
    next: Buffer,
    changes: Array<{ oldStart: number; oldEnd: number; newStart: number; newEnd: number }>,
    removed: EditResult["removed"],
    preview: boolean,
    warnings: string[],
    createDirs = false,
    splices?: ByteSplice[],
    reusable = false,
  ): Promise<EditResult> => {
    if (next.length > deps.maxFileBytes) {
      // The file could not be read or edited again once written: refuse now, nothing written.
      throw new EditError(
        "too_large",
        `the edit would make ${loaded.at.path} ${next.length} bytes, over the ${deps.maxFileBytes}-byte limit; nothing was written`,
        { path: loaded.at.path },
      );
    }
    const changed = loaded.bytes === null || !next.equals(loaded.bytes);
    const written = changed && !preview;
    const hash =
      !changed && loaded.hash !== null
        ? loaded.hash
        : timed("hash", () => rehash(loaded.at.real, loaded.hash, next, samePrefix(splices), !preview));
    const before = loaded.doc ?? emptyDoc();
    const balance = changed && loaded.bytes ? checkBalance(loaded, before, after, changes) : null;
    if (balance) warnings.push(...balance.warnings);
    if (written) {
      warnings.push(
        ...(await commit(deps, loaded, next, {
          op,
          createDirs,
          journal: true,
          hash,
          ...(splices ? { splices } : {}),
          ...io,
        })),
      );
      if (balance) tallies.remember(loaded.at.real, hash, balance.after);
      if (reusable) deps.snapshots.remember(loaded.at.real, next, hash, { ...after, source: next });
      else deps.snapshots.forget(loaded.at.real);
    }
    return timed("diff", () =>
      buildResult({
        op,
        path: loaded.at.path,
        display: loaded.at.display,
        before,
        after,
        changes: changed ? changes : [],
        removed: changed ? removed : [],
        preview,
        written,
        changed,
        created: loaded.bytes === null,
        deleted: false,
        oldHash: loaded.hash,
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
  const checkBalance = (loaded: Loaded, before: Doc, after: Doc, changes: Change[]) => {
    const checks = checksFor(loaded.at.display);
    if (!checks.pairs && !checks.tags) return null;
    let whole = tallies.get(loaded.at.real, loaded.hash!);
    if (!whole) {
      whole = tallyBytes(loaded.bytes!, checks.tags);
      tallies.remember(loaded.at.real, loaded.hash!, whole);
    }
    if (checks.tags) {
      const next = tally(docText(after), true);
      return { warnings: compareTallies(loaded.at.display, whole, next), after: next };
    }
    const out = changes.map((c) => before.lines.slice(c.oldStart, c.oldEnd).join("\n")).join("\n");
    const into = changes.map((c) => after.lines.slice(c.newStart, c.newEnd).join("\n")).join("\n");
    return balanceWarnings(loaded.at.display, whole, out, into);
  };

  return { guarded, applyPlan, finish, locks };
}
