// Loading and committing files for the editor: the only module that reads or replaces target
// files. `withLoaded` pins the file's directory (proven inside the roots, see confine.ts), takes
// the cross-process lock for a real edit (filelock.ts), and reads the file through a descriptor
// proven inside the roots; it refuses what must not be edited (too large — judged by fstat before
// a byte is read — binary, not a regular file). `commit` writes atomically in that same pinned
// directory, re-checking just before the rename that the directory is still inside, the lock
// still ours and the file as loaded, then records the edit in the undo journal.

import type { Stats } from "node:fs";
import { fstatSync, lstatSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { changedUnderneath, sameFile, writeAtomic } from "./atomic.js";
import { type DirRef, makeDirs, openEntry, pinDir } from "./confine.js";
import { EditError, fsError } from "./errors.js";
import { type FileLock, lockFile, lockName, removeDeadLocks } from "./filelock.js";
import { type JournalDeps, type Recorded, recordEdit } from "./journal.js";
import { timed } from "./phases.js";
import type { ResolvedPath, Root } from "./roots.js";
import type { Snapshots } from "./snapshots.js";
import { type ByteSplice, type Doc, decode, sha256 } from "./text.js";

export interface Loaded {
  at: ResolvedPath;
  stats: Stats | null;
  bytes: Buffer | null;
  doc: Doc | null;
  hash: string | null;
  /** The file's directory, pinned; null when it does not exist yet. */
  dir: DirRef | null;
  /** The cross-process lock, held for a real (non-preview) edit. */
  lock: FileLock | null;
}

export interface StoreDeps {
  roots: Root[];
  maxFileBytes: number;
  lockTimeoutMs: number;
  randomHex: () => string;
  journal: JournalDeps;
  /** Documents of recently seen bytes (see snapshots.ts). */
  snapshots: Snapshots;
}

export interface LoadOptions {
  mustExist: boolean;
  /** Take the cross-process lock (for an edit that will write). */
  lock: boolean;
  /** Decode the bytes (false: bytes and hash only, e.g. for undo of a binary file). */
  decode?: boolean;
}

/** Load one snapshot of the file, run `fn` on it, then release the lock and the directory. */
export async function withLoaded<T>(
  deps: StoreDeps,
  at: ResolvedPath,
  opts: LoadOptions,
  fn: (loaded: Loaded) => Promise<T>,
): Promise<T> {
  const dir = await pinDir(dirname(at.real), deps.roots, at.path);
  let lock: FileLock | null = null;
  try {
    if (opts.lock && dir) {
      const pinned = dir;
      lock = await timed("lock", () =>
        lockFile(pinned, basename(at.real), {
          timeoutMs: deps.lockTimeoutMs,
          shown: at.path,
          randomHex: deps.randomHex,
        }),
      );
    }
    const loaded = await timed("read", () => readEntry(deps, at, dir, opts));
    loaded.lock = lock;
    return await fn(loaded);
  } finally {
    await lock?.release();
    await dir?.close();
  }
}

async function readEntry(
  deps: StoreDeps,
  at: ResolvedPath,
  dir: DirRef | null,
  opts: LoadOptions,
): Promise<Loaded> {
  const handle = dir ? await openEntry(dir, basename(at.real), at.path) : null;
  if (!handle) {
    if (opts.mustExist) {
      throw new EditError("not_found", `${at.path} does not exist; create it with write`, { path: at.path });
    }
    return { at, stats: null, bytes: null, doc: null, hash: null, dir, lock: null };
  }
  try {
    const stats = fstatSync(handle.fd);
    if (!stats.isFile()) {
      throw new EditError("invalid_argument", `${at.path} is not a regular file (a directory or device)`, {
        path: at.path,
      });
    }
    // Judged by fstat before a byte is read: a huge file costs no memory to refuse.
    if (stats.size > deps.maxFileBytes) {
      throw new EditError(
        "too_large",
        `${at.path} is ${stats.size} bytes, over the ${deps.maxFileBytes}-byte limit; edit it with another tool`,
        { path: at.path },
      );
    }
    let bytes: Buffer;
    let known: { hash: string; doc: Doc } | undefined;
    try {
      ({ bytes, known } = await deps.snapshots.read(at.real, handle, stats.size));
    } catch (err) {
      throw fsError(err, at.path, "read");
    }
    if (opts.decode === false)
      return { at, stats, bytes, doc: null, hash: known?.hash ?? sha256(bytes), dir, lock: null };
    if (known) return { at, stats, bytes, doc: known.doc, hash: known.hash, dir, lock: null };
    const doc = decode(bytes, at.path);
    const hash = sha256(bytes);
    deps.snapshots.remember(at.real, bytes, hash, doc);
    return { at, stats, bytes, doc, hash, dir, lock: null };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export function checkExpected(loaded: Loaded, expected: string | undefined): void {
  if (expected === undefined) return;
  const path = loaded.at.path;
  if (loaded.hash === null) {
    throw new EditError(
      "conflict",
      `${path} does not exist, but expected_hash ${expected} was given; read it again`,
      { path },
    );
  }
  if (!loaded.hash.startsWith(expected)) {
    throw new EditError(
      "conflict",
      `${path} changed since it was read (hash is now ${loaded.hash.slice(0, 16)}, expected ${expected.slice(0, 16)}); ` +
        "read it again and redo the edit",
      { path, hash: loaded.hash },
    );
  }
}

export interface CommitOptions {
  op: string;
  createDirs?: boolean;
  /** Record the edit for undo (false for an undo itself). */
  journal: boolean;
  /** sha256 of `next`, when the caller already has it. */
  hash?: string;
  /** The byte splices from the loaded bytes to `next`, when known (else one is computed). */
  splices?: ByteSplice[];
  randomHex: () => string;
  now: () => number;
}

/** Write `next` over the loaded file (or delete it when `next` is null) and journal the edit. */
export async function commit(
  deps: StoreDeps,
  loaded: Loaded,
  next: Buffer | null,
  opts: CommitOptions,
): Promise<string[]> {
  const { at } = loaded;
  const name = basename(at.real);
  const warnings: string[] = [];
  let dir = loaded.dir;
  let ownDir = false;
  if (!dir) {
    if (next === null || !opts.createDirs) {
      throw new EditError(
        "not_found",
        `parent directory of ${at.path} does not exist; pass create_dirs: true to create it`,
        { path: at.path },
      );
    }
    dir = await makeDirs(dirname(at.real), deps.roots, at.path);
    ownDir = true;
  }
  const pinned = dir;
  // The last look before the rename: still inside, still our lock, still the bytes we loaded.
  const unchanged = async () => {
    await pinned.verify();
    await loaded.lock?.verify();
    let now: Stats | null = null;
    try {
      now = lstatSync(pinned.entry(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw fsError(err, at.path, "stat");
    }
    const same = loaded.stats ? now !== null && sameFile(now, loaded.stats) : now === null;
    if (!same) throw changedUnderneath(at.path);
  };
  try {
    if (next === null) {
      await unchanged();
      await unlink(pinned.entry(name)).catch((err) => {
        throw fsError(err, at.path, "delete");
      });
      await pinned.sync();
      return warnings;
    }
    if (loaded.stats && loaded.stats.nlink > 1) {
      warnings.push(
        `${at.path} had ${loaded.stats.nlink} hard links; the atomic write gave this path a new inode, so the other links keep the old content`,
      );
    }
    await removeDeadLocks(pinned, deps.randomHex, loaded.lock ? lockName(name) : undefined);
    // The journal entry (which holds the removed bytes) is written while the temp file is, and
    // must be durable before the rename: a crash can then leave an entry whose edit never landed
    // (undo skips it), never a replaced file without its entry.
    const journaled = opts.journal ? journal(deps, loaded, next, opts) : null;
    const held: { entry: Recorded | null } = { entry: null };
    try {
      await timed("write", () =>
        writeAtomic(pinned, name, next, {
          previous: loaded.stats,
          randomHex: opts.randomHex,
          now: opts.now,
          beforeRename: async () => {
            const j = await journaled;
            if (j instanceof Error) {
              warnings.push(
                `the edit was written but could not be journaled, so it cannot be undone: ${j.message}`,
              );
            } else if (j) held.entry = j;
            await unchanged();
          },
          exclusive: loaded.stats === null,
          shown: at.path,
        }),
      );
    } catch (err) {
      // Whatever stopped the write, an entry for it must not stay behind as the newest.
      const j = await journaled;
      if (j && !(j instanceof Error)) await j.discard();
      throw err;
    }
    await held.entry?.landed().catch(() => undefined);
    // The one window left (see confine.ts): the directory itself moved out since the last check.
    // The bytes are written; say so rather than stay silent.
    await pinned.verify().catch((err: unknown) => {
      warnings.push(
        `the directory of ${at.path} was moved while this edit was written, and the file now lies outside the allowed roots: ${(err as Error).message}`,
      );
    });
  } finally {
    if (ownDir) await pinned.close();
  }
  return warnings;
}

/** Record the edit in the journal; an Error (never a rejection) when that failed. */
function journal(
  deps: StoreDeps,
  loaded: Loaded,
  next: Buffer,
  opts: CommitOptions,
): Promise<Recorded | Error> {
  const record = () =>
    recordEdit(deps.journal, {
      real: loaded.at.real,
      path: loaded.at.path,
      op: opts.op,
      before: loaded.bytes,
      after: next,
      beforeHash: loaded.hash,
      afterHash: opts.hash ?? sha256(next),
      splices: opts.splices,
    });
  return timed("journal", record).catch((err: unknown) =>
    err instanceof Error ? err : new Error(String(err)),
  );
}
