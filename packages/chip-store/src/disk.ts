// On-disk layout: one file per chip, `chip-<id>.json`, mode 0600 in a 0700 directory.
// A chip file appears whole or not at all: it is written to a temp file in the same directory,
// fsynced, then hard-linked to its final name. link(2) fails with EEXIST instead of replacing, so
// two processes that pick the same id can never overwrite each other's chip (rename would).

import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";

const CHIP_FILE = /^chip-([0-9a-f]{6}|[0-9a-f]{12})\.json$/;
/** `.chip-p<pid>-<hex>.tmp`: the writer's pid tells a crash leftover from a write in progress. */
const TEMP_FILE = /^\.chip-p(\d{1,10})-[0-9a-f]+\.tmp$/;
/** Temp names without a pid (older versions, the Go tool): only age tells them apart. */
const LEGACY_TEMP_FILE = /^\.chip-[0-9a-f]+\.tmp$/;
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

/**
 * Makes the chip directory ready without changing anything we do not own: each missing level is
 * created 0700, one at a time (so an existing parent keeps its mode, and Node 20's recursive
 * mkdir never meets a pseudo file system such as /proc); an existing directory keeps its mode
 * and owner. Returns null when the directory is fine, else why it is unsafe and how to fix it:
 * world-writable without the sticky bit (anyone could delete or replace chips), or owned by
 * another user (who could read and replace them). Throws the fs error when it cannot be created.
 */
export function ensureChipDir(dir: string): string | null {
  const missing: string[] = [];
  for (let cur = resolve(dir); !existsSync(cur); cur = dirname(cur)) {
    missing.push(cur);
    if (dirname(cur) === cur) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (e) {
      if (errnoCode(e) !== "EEXIST") throw e;
    }
  }
  return unsafeDirReason(dir);
}

/** Why `dir` is no safe place for chips, with the fix; null when it is safe (always on Windows). */
function unsafeDirReason(dir: string): string | null {
  if (process.platform === "win32") return null;
  const st = statSync(dir);
  if (!st.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: "ENOTDIR" });
  const mode = (st.mode & 0o7777).toString(8).padStart(4, "0");
  if ((st.mode & 0o002) !== 0 && (st.mode & 0o1000) === 0) {
    return (
      `chip directory ${dir} is writable by every user without the sticky bit (mode ${mode}), so anyone could ` +
      `replace or delete chips; it was left unchanged. Fix: use a directory of your own (e.g. a new one, which is ` +
      `created 0700), or tighten this one yourself (chmod o-w ${dir}, or chmod +t ${dir})`
    );
  }
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    return (
      `chip directory ${dir} is owned by uid ${st.uid}, not by this user (uid ${uid}), who could read and ` +
      `replace chips; it was left unchanged. Fix: use a directory of your own (e.g. a new one, which is created 0700)`
    );
  }
  return null;
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
  const tmp = join(dir, `.chip-p${process.pid}-${tempTag}.tmp`);
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

/**
 * Removes temp files left by crashed writers; returns how many. A temp file is provably a crash
 * leftover when it is ours by name and owner and its writer's pid no longer runs, so it goes at
 * once; an old-style name without a pid goes once it is STALE_TEMP_MS old.
 */
export function removeStaleTemps(dir: string, nowMs: number): number {
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const pid = TEMP_FILE.exec(name)?.[1];
    if (pid === undefined && !LEGACY_TEMP_FILE.test(name)) continue;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(join(dir, name));
    } catch {
      continue;
    }
    if (!st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
    const stale = pid !== undefined ? !pidAlive(Number(pid)) : nowMs - st.mtimeMs > STALE_TEMP_MS;
    if (stale && unlinkQuiet(join(dir, name))) removed++;
  }
  return removed;
}

/** False only when the system says no such process exists (a process we may not signal lives). */
function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) !== "ESRCH";
  }
}
