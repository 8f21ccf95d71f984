// Reading a file a host wrote for us (its persisted copy of a large output, a data file its Read
// cut short) without ever reading anything else. Contract of `readConfined`: the path must be
// absolute and lie, as written, under one of the roots; it is opened one directory at a time from
// the root down, never following a symlink, and what is opened must be a regular file of ours
// (our uid, one link, at most `maxBytes`). Anything else is refused with a reason, and no byte is
// read from what was refused. Reads are synchronous: a hook is one short process, and each step
// is one system call on a local file.
//
// Race-proof on Linux the way the edit tools' confine.ts is: each directory is held open and the
// next step is opened through `/proc/self/fd/<dir>/<name>`, which the kernel resolves from that
// open directory (like openat(2)), with O_NOFOLLOW on the name; so swapping any directory of the
// path for a symlink while we walk changes nothing we open. The file's descriptor is then proven
// inside the root through its own /proc/self/fd link. Elsewhere (no /proc) each directory is
// compared by device and inode with its realpath right before the next open, which narrows the
// race to the gap between that check and the open (documented as a residual risk).
import { isUtf8 } from "node:buffer";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { isAbsolute, join, normalize, relative, sep } from "node:path";

/** Why a confined read refused a path. */
export type ConfinedRefusal =
  | "not_absolute"
  | "outside_roots"
  | "not_found"
  | "symlink"
  | "not_regular_file"
  | "not_ours"
  | "too_large"
  | "unreadable";

export type ConfinedRead = { bytes: Buffer } | { refused: ConfinedRefusal };

const PROC_FD = "/proc/self/fd";
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
let procWorks: boolean | undefined;

/**
 * True when /proc/self/fd names open descriptors (Linux with /proc mounted); checked once. The
 * same probe as edit-ops' disk/confine.ts, kept here: a hook must not load the edit tools for it.
 */
function procFdWorks(): boolean {
  if (procWorks !== undefined) return procWorks;
  procWorks = false;
  if (process.platform !== "linux") return procWorks;
  let fd: number | undefined;
  try {
    fd = openSync("/", constants.O_RDONLY | constants.O_DIRECTORY);
    procWorks = readlinkSync(`${PROC_FD}/${fd}`) === "/";
  } catch {
    procWorks = false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return procWorks;
}

function within(path: string, root: string): string[] | null {
  const rel = relative(root, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel.split(sep);
}

class Refused extends Error {
  constructor(readonly reason: ConfinedRefusal) {
    super(reason);
  }
}

function refusalOf(err: unknown): ConfinedRefusal {
  if (err instanceof Refused) return err.reason;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "not_found";
  if (code === "ELOOP" || code === "EMLINK") return "symlink";
  if (code === "ENOTDIR") return "not_regular_file";
  return "unreadable";
}

/** Where an open descriptor is, by its /proc link (Linux), or null when not in the file tree. */
function located(fd: number): string | null {
  const where = readlinkSync(`${PROC_FD}/${fd}`);
  return where.startsWith("/") && !where.endsWith(" (deleted)") ? where : null;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Open `parts` under `root` one step at a time, never through a symlink; returns the open file.
 * `root` is a real path (symlinks resolved) the caller trusts.
 */
function openUnder(root: string, parts: string[]): number {
  const proc = procFdWorks();
  let dir = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  let dirPath = root;
  try {
    if (proc && located(dir) !== root) throw new Refused("outside_roots");
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      if (name === "" || name === "." || name === "..") throw new Refused("outside_roots");
      const last = i === parts.length - 1;
      let next: number;
      const at = proc ? `${PROC_FD}/${dir}/${name}` : join(dirPath, name);
      // No openat elsewhere: the directory must still be the one we opened, where we opened it.
      if (!proc && (realpathSync(dirPath) !== dirPath || !sameFile(statSync(dirPath), fstatSync(dir))))
        throw new Refused("outside_roots");
      try {
        next = openSync(at, last ? READ_FLAGS : DIR_FLAGS);
      } catch (err) {
        // O_NOFOLLOW|O_DIRECTORY on a symlink says ENOTDIR; name it for what it is.
        if (!last && (err as NodeJS.ErrnoException).code === "ENOTDIR" && isLink(at))
          throw new Refused("symlink");
        throw err;
      }
      closeSync(dir);
      dir = next;
      dirPath = join(dirPath, name);
      if (proc) {
        const where = located(dir);
        if (where === null || within(where, root) === null) throw new Refused("outside_roots");
      }
    }
    return dir;
  } catch (err) {
    closeSync(dir);
    throw err;
  }
}

/** A regular file of ours under one of `roots`, read whole (see the contract above). */
export function readConfined(path: string, roots: readonly string[], maxBytes: number): ConfinedRead {
  if (typeof path !== "string" || !isAbsolute(path) || path.includes("\0"))
    return { refused: "not_absolute" };
  const wanted = normalize(path);
  let sawRoot = false;
  for (const given of roots) {
    let root: string;
    try {
      root = realpathSync(given);
    } catch {
      continue;
    }
    // The host names the file through its own spelling of the root (a symlinked home, say).
    const parts = within(wanted, given) ?? within(wanted, root);
    if (parts === null) continue;
    sawRoot = true;
    let fd: number;
    try {
      fd = openUnder(root, parts);
    } catch (err) {
      return { refused: refusalOf(err) };
    }
    try {
      return readOpen(fd, maxBytes);
    } finally {
      closeSync(fd);
    }
  }
  return { refused: sawRoot ? "unreadable" : "outside_roots" };
}

function readOpen(fd: number, maxBytes: number): ConfinedRead {
  const st = fstatSync(fd);
  if (!st.isFile()) return { refused: "not_regular_file" };
  // Another link to the same inode may live anywhere; a file the host wrote has one, and is ours.
  const uid = process.getuid?.();
  if (st.nlink !== 1 || (uid !== undefined && st.uid !== uid)) return { refused: "not_ours" };
  if (st.size > maxBytes) return { refused: "too_large" };
  // One byte more than the size: a file still growing past the cap is refused, not cut.
  const buf = Buffer.alloc(Math.min(st.size + 1, maxBytes + 1));
  let off = 0;
  try {
    for (let n = -1; n !== 0 && off < buf.length; off += n) n = readSync(fd, buf, off, buf.length - off, off);
  } catch {
    return { refused: "unreadable" };
  }
  if (off > maxBytes) return { refused: "too_large" };
  return { bytes: buf.subarray(0, off) };
}

/** The persisted output's text, or null when it is not ours to read or not UTF-8. */
export function readPersisted(path: string, roots: readonly string[], maxBytes: number): string | null {
  const read = readConfined(path, roots, maxBytes);
  if (!("bytes" in read) || !isUtf8(read.bytes)) return null;
  return read.bytes.toString("utf8");
}
