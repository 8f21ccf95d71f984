// Committing an edit: the only module that replaces target files. `commit` writes atomically
// in the directory the load pinned, re-checking just before the rename that the directory is
// still inside the roots, the lock still ours and the file as loaded. The undo journal's entry
// for the edit is written beside the temp file and is durable before the rename (see journal.ts).

import type { Stats } from "node:fs";
import { lstatSync } from "node:fs";
import { unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { ByteSplice } from "../doc/bytesplice.js";
import { sha256 } from "../doc/lines.js";
import { EditError, fsError } from "../errors.js";
import { timed } from "../phases.js";
import { changedUnderneath, sameFile, writeAtomic } from "./atomic.js";
import { makeDirs } from "./entries.js";
import { lockName, removeDeadLocks } from "./filelock.js";
import { type Recorded, recordEdit } from "./journal.js";
import type { FileBytes, FileDeps, NoFile } from "./load.js";

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
  deps: FileDeps,
  loaded: FileBytes | NoFile,
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
  deps: FileDeps,
  loaded: FileBytes | NoFile,
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
