// Race-proof confinement. Contract: no byte of a file is read or written until the descriptor
// that reaches it has been proven to sit inside the allowed roots *after* it was opened; checking
// a path first and opening it later would follow whatever that path names at the moment of the
// open (a directory swapped for a symlink to the outside in between).
//
// On Linux (when /proc/self/fd works, checked once) a directory is opened first and its real
// location read back from /proc/self/fd/N; every later step — opening the file, creating the
// temp file, renaming, unlinking, making a sub-directory — goes through the path
// `/proc/self/fd/N/<name>`, which the kernel resolves from that open directory, so it behaves like
// openat(2)/renameat(2): swapping the directory's path for a symlink afterwards changes nothing.
// A file descriptor is proven the same way (its /proc/self/fd link must lie inside a root).
// The one residual window: the directory inode itself being *moved* (rename(2), not a symlink
// swap) out of the roots between the last check and the rename. Only someone who can already
// rename directories inside the root can do that, and the file written is one that was inside.
//
// Elsewhere (macOS, Windows, Linux without /proc) there is no openat from Node: a directory is
// pinned by its dev+ino and re-resolved (realpath) and compared right before each step, which
// narrows the race to the gap between that check and the system call. That is documented as a
// residual risk for those platforms.

import type { Stats } from "node:fs";
import { closeSync, constants, openSync, readlinkSync } from "node:fs";
import { type FileHandle, open, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { EditError, fsError } from "../errors.js";
import { inside, type Root } from "./roots.js";

const PROC_FD = "/proc/self/fd";
let procFd: boolean | undefined;

/** Tests only: force the portable (identity) mode, or back to detection. */
export function forceIdentityMode(on: boolean): void {
  procFd = on ? false : undefined;
}

/** True when /proc/self/fd names open descriptors (Linux with /proc mounted); checked once. */
export function procFdWorks(): boolean {
  if (procFd !== undefined) return procFd;
  procFd = false;
  if (process.platform !== "linux") return procFd;
  let fd: number | undefined;
  try {
    fd = openSync("/", constants.O_RDONLY | constants.O_DIRECTORY);
    procFd = readlinkSync(`${PROC_FD}/${fd}`) === "/";
  } catch {
    procFd = false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return procFd;
}

const DELETED = " (deleted)";

/**
 * Where an open descriptor really is (Linux), or null when it is not in the file tree. A file
 * replaced by someone's rename while we hold it reads back as `<path> (deleted)`: its last place
 * is still the place to judge (the suffix cannot move it to another directory).
 */
function locate(fd: number): string | null {
  // Synchronous: a readlink in /proc takes microseconds; a thread-pool trip costs far more.
  const where = readlinkSync(`${PROC_FD}/${fd}`);
  if (!where.startsWith("/")) return null;
  return where.endsWith(DELETED) ? where.slice(0, -DELETED.length) : where;
}

function escaped(shown: string, where: string | null, roots: Root[]): EditError {
  const list = roots.map((r) => r.given);
  const why =
    where === null
      ? "is not a file in the directory tree"
      : `was moved or replaced by a link to ${where}, outside the allowed roots, while this operation ran`;
  return new EditError(
    "outside_roots",
    `${shown} ${why}; nothing outside was read or written. Allowed roots: ${list.join(", ")}`,
    { path: shown, roots: list },
  );
}

export const insideRoots = (roots: Root[], p: string) => roots.some((r) => inside(r.real, p));

/** A directory held open (or pinned by identity) whose entries are reached race-free. */
export interface DirRef {
  /** A path that reaches the entry `name` of this very directory. */
  entry(name: string): string;
  /** Throws unless the directory is still inside the roots (and, off Linux, still the same one). */
  verify(): Promise<void>;
  /** Throws unless an open file of this directory lies inside the roots. */
  verifyHandle(handle: FileHandle, name: string, shown: string): Promise<void>;
  /** fsync the directory (best effort: some file systems refuse). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** A directory of our own (the undo journal): no roots to prove, plain paths. */
export function plainDir(dir: string): DirRef {
  return {
    entry: (name) => join(dir, name),
    verify: async () => {},
    verifyHandle: async () => {},
    sync: () => syncPath(dir),
    close: async () => {},
  };
}

async function syncPath(dir: string): Promise<void> {
  let h: FileHandle | undefined;
  try {
    h = await open(dir, "r");
    await h.sync();
  } catch {
    // Some file systems refuse fsync on a directory (EINVAL/EISDIR); the rename is still atomic.
  } finally {
    await h?.close().catch(() => undefined);
  }
}

/**
 * Open directory `real` and prove it is inside the roots. Returns null when it does not exist.
 * `shown` is the caller's name for it, for messages.
 */
export async function pinDir(real: string, roots: Root[], shown: string): Promise<DirRef | null> {
  if (procFdWorks()) {
    let handle: FileHandle;
    try {
      handle = await openDir(real);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return null;
      if (code === "ENOTDIR") {
        throw new EditError("not_found", `${shown}: a parent of it is not a directory`, { path: shown });
      }
      throw fsError(err, shown, "open the directory of");
    }
    return verified(procDir(handle, roots, shown));
  }
  let id: Stats;
  try {
    id = await stat(real);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw fsError(err, shown, "open the directory of");
  }
  const dir = identityDir(real, id, roots, shown);
  await dir.verify();
  return dir;
}

/** Linux's O_PATH (not in Node's constants): names a directory we may search but not list. */
const O_PATH = 0o10000000;

/** Open a directory for lookups; a searchable but unreadable one (mode --x) through O_PATH. */
async function openDir(real: string, extra = 0): Promise<FileHandle> {
  try {
    return await open(real, constants.O_RDONLY | constants.O_DIRECTORY | extra);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EACCES") throw err;
    return open(real, O_PATH | constants.O_DIRECTORY | extra);
  }
}

function procDir(handle: FileHandle, roots: Root[], shown: string): DirRef {
  const base = `${PROC_FD}/${handle.fd}`;
  return {
    entry: (name) => `${base}/${name}`,
    async verify() {
      const where = locate(handle.fd);
      if (where === null || !insideRoots(roots, where)) throw escaped(shown, where, roots);
    },
    async verifyHandle(file, _name, fileShown) {
      const where = locate(file.fd);
      if (where === null || !insideRoots(roots, where)) throw escaped(fileShown, where, roots);
    },
    async sync() {
      await handle.sync().catch(() => undefined);
    },
    async close() {
      await handle.close().catch(() => undefined);
    },
  };
}

/** Off Linux: the directory is known by dev+ino and re-resolved before each step. */
function identityDir(real: string, id: Stats, roots: Root[], shown: string): DirRef {
  const verify = async () => {
    let now: string;
    let st: Stats;
    try {
      now = await realpath(real);
      st = await stat(now);
    } catch {
      throw escaped(shown, null, roots);
    }
    if (now !== real || st.dev !== id.dev || st.ino !== id.ino || !insideRoots(roots, now)) {
      throw escaped(shown, now, roots);
    }
  };
  return {
    entry: (name) => join(real, name),
    verify,
    async verifyHandle(file, name, fileShown) {
      await verify();
      const st = await file.stat();
      let named: Stats;
      try {
        named = await stat(join(real, name));
      } catch {
        throw escaped(fileShown, null, roots);
      }
      if (named.dev !== st.dev || named.ino !== st.ino) throw escaped(fileShown, null, roots);
    },
    sync: () => syncPath(real),
    close: async () => {},
  };
}

/** Open a sub-directory of a pinned directory (never through a symlink) and pin it. */
export async function pinEntryDir(
  parent: DirRef,
  name: string,
  roots: Root[],
  shown: string,
): Promise<DirRef | null> {
  if (!procFdWorks()) {
    const real = parent.entry(name);
    return pinDir(real, roots, shown);
  }
  let handle: FileHandle;
  try {
    handle = await openDir(parent.entry(name), constants.O_NOFOLLOW ?? 0);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP" || code === "ENOTDIR") {
      throw new EditError(
        "conflict",
        `a directory on the way to ${shown} was replaced by a link or a file while it was created; nothing was written`,
        { path: shown },
      );
    }
    throw fsError(err, shown, "open a directory for");
  }
  return verified(procDir(handle, roots, shown));
}

/** The directory once proven inside the roots; closed before the error otherwise. */
async function verified(dir: DirRef): Promise<DirRef> {
  try {
    await dir.verify();
  } catch (err) {
    await dir.close();
    throw err;
  }
  return dir;
}
