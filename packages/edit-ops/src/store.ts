// Loading and committing files for the editor: the only module that reads or replaces target
// files. `load` refuses what must not be edited (too large, binary, not a regular file);
// `commit` writes atomically, re-checking just before the rename that nobody changed the file
// since it was loaded, then records the edit in the undo journal.

import type { Stats } from "node:fs";
import { mkdir, readFile, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { changedUnderneath, sameFile, statOrNull, writeAtomic } from "./atomic.js";
import { EditError, fsError } from "./errors.js";
import { type JournalDeps, recordEdit } from "./journal.js";
import type { ResolvedPath } from "./roots.js";
import { type ByteSplice, type Doc, decode, sha256 } from "./text.js";

export interface Loaded {
  at: ResolvedPath;
  stats: Stats | null;
  bytes: Buffer | null;
  doc: Doc | null;
  hash: string | null;
}

export interface StoreDeps {
  maxFileBytes: number;
  journal: JournalDeps;
}

export async function load(deps: StoreDeps, at: ResolvedPath, mustExist: boolean): Promise<Loaded> {
  const stats = await statOrNull(at.real);
  if (!stats) {
    if (mustExist) {
      throw new EditError("not_found", `${at.path} does not exist; create it with write`, { path: at.path });
    }
    return { at, stats: null, bytes: null, doc: null, hash: null };
  }
  if (!stats.isFile()) {
    throw new EditError("invalid_argument", `${at.path} is not a regular file (a directory or device)`, {
      path: at.path,
    });
  }
  if (stats.size > deps.maxFileBytes) {
    throw new EditError(
      "too_large",
      `${at.path} is ${stats.size} bytes, over the ${deps.maxFileBytes}-byte limit; edit it with another tool`,
      { path: at.path },
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(at.real);
  } catch (err) {
    throw fsError(err, at.path, "read");
  }
  return { at, stats, bytes, doc: decode(bytes, at.path), hash: sha256(bytes) };
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
  const warnings: string[] = [];
  const unchanged = async () => {
    const now = await statOrNull(at.real);
    const same = loaded.stats ? now !== null && sameFile(now, loaded.stats) : now === null;
    if (!same) throw changedUnderneath(at.path);
  };
  if (next === null) {
    await unchanged();
    await unlink(at.real).catch((err) => {
      throw fsError(err, at.path, "delete");
    });
    return warnings;
  }
  if (!loaded.stats) {
    const parent = dirname(at.real);
    if (opts.createDirs) {
      await mkdir(parent, { recursive: true }).catch((err) => {
        throw fsError(err, parent, "create directory");
      });
    } else if (!(await statOrNull(parent))) {
      throw new EditError(
        "not_found",
        `parent directory of ${at.path} does not exist; pass create_dirs: true to create it`,
        { path: at.path },
      );
    }
  }
  if (loaded.stats && loaded.stats.nlink > 1) {
    warnings.push(
      `${at.path} had ${loaded.stats.nlink} hard links; the atomic write gave this path a new inode, so the other links keep the old content`,
    );
  }
  await writeAtomic(at.real, next, {
    previous: loaded.stats,
    randomHex: opts.randomHex,
    now: opts.now,
    beforeRename: unchanged,
  });
  if (!opts.journal) return warnings;
  try {
    await recordEdit(
      deps.journal,
      at.real,
      at.path,
      opts.op,
      loaded.bytes,
      next,
      loaded.hash,
      opts.hash,
      opts.splices,
    );
  } catch (err) {
    warnings.push(
      `the edit was written but could not be journaled, so it cannot be undone: ${(err as Error).message}`,
    );
  }
  return warnings;
}
