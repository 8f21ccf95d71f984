// Atomic replacement of a file's bytes inside a pinned directory (see confine.ts): write a temp
// file with a random name in that directory, prove the temp file is inside the roots, fsync it,
// give it the old file's mode (and owner where allowed), run the caller's last checks, then
// rename it over the target (or hard-link it, for a file that must not exist yet) and fsync the
// directory. A crash leaves the old file or the new one, never a torn one. Rename gives the path
// a new inode, so a hard link to the old file keeps the old bytes: atomicity wins over link
// sharing (the editor warns when it splits a link).
//
// Temp names carry the writer's pid: `.<name>.<pid>-<16 hex>.caveman-tmp`. A temp file whose
// writer is dead (same user, pid not running) is provably a crash leftover and is removed by the
// next write into that directory, whatever file it was for; names without a pid (older
// versions) go after STALE_MS.
//
// Metadata calls (rename, link, unlink, lstat, readdir, fstat, fchmod) are synchronous: each
// takes microseconds, while a trip through the thread pool costs a millisecond or more on a
// loaded machine. Writing the bytes and every fsync stay async.

import type { Stats } from "node:fs";
import {
  fchmodSync,
  fchownSync,
  fstatSync,
  linkSync,
  lstatSync,
  readdirSync,
  renameSync,
  unlinkSync,
} from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { EditError, fsError } from "../errors.js";
import { timed } from "../phases.js";
import type { DirRef } from "./confine.js";
import { pidAlive } from "./liveness.js";

export const TEMP_SUFFIX = ".caveman-tmp";
const STALE_MS = 10 * 60 * 1000;

export interface AtomicWriteOptions {
  /** Stats of the file being replaced (mode/owner are copied), or null when creating it. */
  previous: Stats | null;
  /** Random hex for the temp name. */
  randomHex: () => string;
  now: () => number;
  /** Mode for a new file (default 0o666, then masked by the umask). */
  mode?: number;
  /** Remove crash leftovers of ours next to the target first (default true). */
  cleanStale?: boolean;
  /** Called just before the rename: throw to abort (the temp file is removed, the target untouched). */
  beforeRename?: () => Promise<void>;
  /** For a creation: fail with `conflict` if the target appeared meanwhile, never replace it. */
  exclusive?: boolean;
  /** The caller's name for the target, for messages. */
  shown?: string;
}

/** Most file systems cap a name at 255 bytes; the temp name adds up to 40 to the target's own. */
const NAME_MAX = 255;
const TEMP_EXTRA = 2 + 11 + 16 + TEMP_SUFFIX.length;

/** `.<name>.` with the name cut (at a character boundary) so a file named up to the limit can be edited. */
export function tempPrefix(name: string): string {
  let base = name;
  while (Buffer.byteLength(base) > NAME_MAX - TEMP_EXTRA) base = Array.from(base).slice(0, -1).join("");
  return `.${base}.`;
}

export function tempName(name: string, hex: string): string {
  return `${tempPrefix(name)}${process.pid}-${hex}${TEMP_SUFFIX}`;
}

export async function writeAtomic(
  dir: DirRef,
  name: string,
  data: Uint8Array,
  opts: AtomicWriteOptions,
): Promise<void> {
  const shown = opts.shown ?? name;
  if (opts.cleanStale !== false) removeStaleTemps(dir, opts.now());
  const tmp = tempName(name, opts.randomHex());
  const mode = opts.previous ? opts.previous.mode & 0o7777 : (opts.mode ?? 0o666);
  let handle: FileHandle | undefined;
  try {
    // Replacing a file: private until its owner is set, then the old mode exactly. Created with
    // the old mode, a root-run edit of a setuid file would leave a root-owned setuid copy of new
    // bytes in the directory while they are written.
    handle = await open(dir.entry(tmp), "wx", opts.previous ? 0o600 : mode);
    // The temp file is where the bytes go first: prove it is inside before writing one.
    await dir.verifyHandle(handle, tmp, shown);
    await writeAll(handle, data);
    if (opts.previous) {
      // Owner first: chown(2) clears setuid/setgid (for root too), so the mode comes after it.
      // open() is masked by the umask; the old mode must come back exactly (setuid bits included).
      keepOwner(handle.fd, opts.previous);
      fchmodSync(handle.fd, mode);
    }
    await timed("fsync", () => handle!.sync());
    await handle.close();
    handle = undefined;
    if (opts.beforeRename) await opts.beforeRename();
    if (opts.exclusive) await placeExclusive(dir, tmp, name, shown);
    else renameSync(dir.entry(tmp), dir.entry(name));
  } catch (err) {
    if (handle) await handle.close().catch(() => undefined);
    quietUnlink(dir.entry(tmp));
    throw fsError(err, shown, "write");
  }
  await timed("fsync", () => dir.sync());
}

/**
 * One write(2) for the whole buffer where the kernel takes it (it does for regular files), not
 * FileHandle.writeFile's 512 KiB chunks: each chunk is a trip through the thread pool and back to
 * the event loop, and on a loaded machine those trips, not the copying, were most of the cost.
 */
async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  for (let off = 0; off < data.length; ) {
    const { bytesWritten } = await handle.write(data, off, data.length - off, off);
    off += bytesWritten;
  }
}

/** link(2) refuses to replace: a file created by someone else meanwhile is a conflict, not lost. */
async function placeExclusive(dir: DirRef, tmp: string, name: string, shown: string): Promise<void> {
  try {
    linkSync(dir.entry(tmp), dir.entry(name));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      throw new EditError(
        "conflict",
        `${shown} was created by someone else while this edit ran; nothing was written — read it and retry`,
        { path: shown },
      );
    }
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EXDEV") throw err;
    // No hard links on this file system: the pre-rename check is the only guard left.
    renameSync(dir.entry(tmp), dir.entry(name));
    return;
  }
  quietUnlink(dir.entry(tmp));
}

/** Remove a file of ours; one already gone (another process cleaned up first) is fine. */
export function quietUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function keepOwner(fd: number, previous: Stats): void {
  const st = fstatSync(fd);
  if (st.uid === previous.uid && st.gid === previous.gid) return;
  try {
    fchownSync(fd, previous.uid, previous.gid);
  } catch {
    // Only root may give a file away; an ordinary user keeps its own uid — documented behaviour.
  }
}

/** `.<name>.<pid>-<16 hex>.caveman-tmp`, or the old `.<name>.<16 hex>.caveman-tmp`. */
const OURS = /^\..+\.(?:(\d{1,10})-)?[0-9a-f]{16}\.caveman-tmp$/;

/**
 * Remove temp files left in this directory by crashed writers (of any file in it): ours by name
 * pattern and owner, and either written by a process that no longer runs or (old-style names
 * without a pid) older than STALE_MS. A live writer's temp file is never touched. Returns how
 * many were removed.
 */
export function removeStaleTemps(dir: DirRef, now: number): number {
  let names: string[];
  try {
    names = readdirSync(dir.entry("."));
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let removed = 0;
  for (const entry of names) {
    const m = OURS.exec(entry);
    if (!m) continue;
    const pid = m[1];
    const p = dir.entry(entry);
    try {
      const st = lstatSync(p);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
      const stale = pid !== undefined ? !pidAlive(Number(pid)) : now - st.mtimeMs >= STALE_MS;
      if (!stale) continue;
      unlinkSync(p);
      removed++;
    } catch {
      // Another process may have renamed or removed it first.
    }
  }
  return removed;
}

export function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

export function changedUnderneath(path: string): EditError {
  return new EditError(
    "conflict",
    `${path} changed on disk while this edit was being prepared; nothing was written — read it again and retry`,
    { path },
  );
}
