// On-disk layout: one file per chip, `chip-<id>.json`, mode 0600 in a 0700 directory.
// A chip file appears whole or not at all: it is written to a temp file in the same directory,
// fsynced, then hard-linked to its final name. link(2) fails with EEXIST instead of replacing, so
// two processes that pick the same id can never overwrite each other's chip (rename would).

import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const CHIP_FILE = /^chip-([0-9a-f]{6}|[0-9a-f]{12})\.json$/;
const TEMP_FILE = /^\.chip-[0-9a-f]+\.tmp$/;
/** Temp files older than this belong to a crashed writer, not to one still writing. */
const STALE_TEMP_MS = 10 * 60 * 1000;

export function chipFileName(id: string): string {
  return `chip-${id}.json`;
}

export function idFromFileName(name: string): string | null {
  return CHIP_FILE.exec(name)?.[1] ?? null;
}

export function errnoCode(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && "code" in e
    ? String((e as { code: unknown }).code)
    : undefined;
}

/** Creates the directory 0700 (and tightens an existing one we can chmod). */
export function ensureChipDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // A directory owned by someone else stays as it is; writes into it still work or warn.
  }
}

export function listChipFiles(dir: string): string[] {
  return readdirSync(dir).filter((n) => CHIP_FILE.test(n));
}

export function chipFileExists(dir: string, id: string): boolean {
  try {
    statSync(join(dir, chipFileName(id)));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a chip file without following a symlink and without blocking on a FIFO or device that a
 * hostile or confused writer left under a chip name: only a regular file of at most `maxBytes` is
 * read. Anything else throws an error whose code is ENOTCHIP (the caller reports it as corrupt).
 */
export function readChipFile(dir: string, name: string, maxBytes: number): string {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let fd: number;
  try {
    fd = openSync(join(dir, name), flags);
  } catch (e) {
    if (errnoCode(e) === "ELOOP") throw notChip(`${name} is a symbolic link, not a chip file`);
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notChip(`${name} is not a regular file`);
    if (st.size > maxBytes) throw notChip(`${name} is ${st.size} bytes, over the ${maxBytes}-byte limit`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function notChip(message: string): Error {
  return Object.assign(new Error(message), { code: "ENOTCHIP" });
}

export function fileMtimeMs(dir: string, name: string): number | null {
  try {
    return statSync(join(dir, name)).mtimeMs;
  } catch {
    return null;
  }
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename/link is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `text` as `name` atomically and exclusively. Throws the fs error; an existing file
 * gives an error whose code is EEXIST and is never replaced.
 */
export function writeExclusive(dir: string, name: string, text: string, tempTag: string): void {
  const tmp = join(dir, `.chip-${tempTag}.tmp`);
  const final = join(dir, name);
  let fd: number;
  try {
    fd = openSync(tmp, "wx", 0o600);
  } catch (e) {
    // Not an id collision: the caller must not mistake this EEXIST for a taken chip id.
    throw Object.assign(new Error(`cannot create temp file ${tmp}: ${(e as Error).message}`), {
      code: "ETEMP",
    });
  }
  try {
    const buf = Buffer.from(text, "utf8");
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkQuiet(tmp);
    throw e;
  }
  closeSync(fd);
  try {
    linkSync(tmp, final);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "EPERM" || code === "ENOTSUP" || code === "ENOSYS" || code === "EXDEV") {
      // File systems without hard links: fall back to rename after an existence check. The window
      // between the check and the rename is the only place two writers could race.
      try {
        statSync(final);
        unlinkQuiet(tmp);
        throw Object.assign(new Error(`EEXIST: ${final}`), { code: "EEXIST" });
      } catch (inner) {
        if (errnoCode(inner) === "EEXIST") throw inner;
      }
      renameSync(tmp, final);
      fsyncDir(dir);
      return;
    }
    unlinkQuiet(tmp);
    throw e;
  }
  unlinkQuiet(tmp);
  fsyncDir(dir);
}

export function unlinkQuiet(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes temp files left by writers that crashed long enough ago; returns how many. */
export function removeStaleTemps(dir: string, nowMs: number): number {
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (!TEMP_FILE.test(name)) continue;
    const mtime = fileMtimeMs(dir, name);
    if (mtime !== null && nowMs - mtime > STALE_TEMP_MS && unlinkQuiet(join(dir, name))) removed++;
  }
  return removed;
}
