// Atomic replacement of a file's bytes: write a temp file with a random name in the same
// directory, fsync it, give it the old file's mode (and owner where allowed), rename it over the
// target, fsync the directory. A crash leaves the old file or the new one, never a torn one.
// Rename gives the path a new inode, so a hard link to the old file keeps the old bytes: atomicity
// wins over link sharing (the editor warns when it splits a link). Temp files of ours left by a
// crash are removed on the next write to the same directory once they are older than STALE_MS.

import type { Stats } from "node:fs";
import { lstat, open, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { EditError, fsError } from "./errors.js";

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
  /** Remove our stale temp files next to the target first (default true). */
  cleanStale?: boolean;
  /** Called just before rename: throw to abort (the temp file is removed, the target untouched). */
  beforeRename?: () => Promise<void>;
}

/** Most file systems cap a name at 255 bytes; the temp name adds 30 to the target's own name. */
const NAME_MAX = 255;
const TEMP_EXTRA = 2 + 16 + TEMP_SUFFIX.length;

/** `.<name>.` with the name cut (at a character boundary) so a file named up to the limit can be edited. */
function tempPrefix(target: string): string {
  let base = basename(target);
  while (Buffer.byteLength(base) > NAME_MAX - TEMP_EXTRA) base = Array.from(base).slice(0, -1).join("");
  return `.${base}.`;
}

export function tempName(target: string, hex: string): string {
  return join(dirname(target), `${tempPrefix(target)}${hex}${TEMP_SUFFIX}`);
}

export async function writeAtomic(target: string, data: Uint8Array, opts: AtomicWriteOptions): Promise<void> {
  const dir = dirname(target);
  if (opts.cleanStale !== false) await removeStaleTemps(target, opts.now());
  const tmp = tempName(target, opts.randomHex());
  const mode = opts.previous ? opts.previous.mode & 0o7777 : (opts.mode ?? 0o666);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tmp, "wx", mode);
    await handle.writeFile(data);
    if (opts.previous) {
      // open() is masked by the umask; the old mode must come back exactly (setuid bits included).
      await handle.chmod(mode);
      await keepOwner(handle, opts.previous);
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (opts.beforeRename) await opts.beforeRename();
    await rename(tmp, target);
  } catch (err) {
    if (handle) await handle.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw fsError(err, target, "write");
  }
  await syncDir(dir);
}

async function keepOwner(handle: Awaited<ReturnType<typeof open>>, previous: Stats): Promise<void> {
  const st = await handle.stat();
  if (st.uid === previous.uid && st.gid === previous.gid) return;
  try {
    await handle.chown(previous.uid, previous.gid);
  } catch {
    // Only root may give a file away; an ordinary user keeps its own uid — documented behaviour.
  }
}

export async function syncDir(dir: string): Promise<void> {
  let h: Awaited<ReturnType<typeof open>> | undefined;
  try {
    h = await open(dir, "r");
    await h.sync();
  } catch {
    // Some file systems refuse fsync on a directory (EINVAL/EISDIR); the rename is still atomic.
  } finally {
    await h?.close().catch(() => undefined);
  }
}

export async function removeStaleTemps(target: string, now: number): Promise<number> {
  const dir = dirname(target);
  const prefix = tempPrefix(target);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const hex = name.slice(prefix.length, -TEMP_SUFFIX.length);
    if (!/^[0-9a-f]{16}$/.test(hex)) continue;
    const p = join(dir, name);
    try {
      const st = await lstat(p);
      if (!st.isFile() || now - st.mtimeMs < STALE_MS) continue;
      await unlink(p);
      removed++;
    } catch {
      // Another process may have renamed or removed it first.
    }
  }
  return removed;
}

/** Stat that maps errors to typed ones; null when the file does not exist. */
export async function statOrNull(p: string): Promise<Stats | null> {
  try {
    return await stat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw fsError(err, p, "stat");
  }
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
