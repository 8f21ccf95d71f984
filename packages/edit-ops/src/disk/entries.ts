// Working through a pinned directory (see confine.ts): open a file in it for reading, proven
// inside the roots, and create missing directories under the roots one verified level at a time.

import { constants } from "node:fs";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { EditError, fsError } from "../errors.js";
import { type DirRef, insideRoots, pinDir, pinEntryDir } from "./confine.js";
import type { Root } from "./roots.js";

/**
 * Open the entry `name` of a pinned directory for reading, without following a symlink there
 * and without blocking on a FIFO, and prove the descriptor is inside the roots. Returns null
 * when it does not exist.
 */
export async function openEntry(dir: DirRef, name: string, shown: string): Promise<FileHandle | null> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(dir.entry(name), flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") {
      // realpath said this was no link; it became one since. Never follow it.
      throw new EditError(
        "conflict",
        `${shown} was replaced by a symbolic link while this operation ran; nothing was read — retry`,
        { path: shown },
      );
    }
    throw fsError(err, shown, "open");
  }
  try {
    await dir.verifyHandle(handle, name, shown);
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  return handle;
}

/**
 * Create the missing directories between the nearest existing ancestor of `real` and `real`
 * itself, one level at a time, each reached through its verified parent (never through a path
 * that a swap could redirect). Returns the pinned innermost directory.
 */
export async function makeDirs(real: string, roots: Root[], shown: string): Promise<DirRef> {
  const missing: string[] = [];
  let cur = real;
  let dir: DirRef | null = null;
  for (;;) {
    dir = await pinDir(cur, roots, shown);
    if (dir) break;
    const parent = dirname(cur);
    if (parent === cur || !insideRoots(roots, parent)) {
      throw new EditError("not_found", `no existing parent directory of ${shown} inside the roots`, {
        path: shown,
      });
    }
    missing.unshift(basename(cur));
    cur = parent;
  }
  for (const name of missing) {
    const next = dir.entry(name);
    try {
      await mkdir(next);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
        await dir.close();
        throw fsError(err, shown, "create a directory for");
      }
    }
    let child: DirRef | null;
    try {
      child = await pinEntryDir(dir, name, roots, shown);
    } finally {
      await dir.close();
    }
    if (!child)
      throw new EditError("conflict", `a directory for ${shown} vanished while it was created; retry`);
    dir = child;
  }
  return dir;
}
