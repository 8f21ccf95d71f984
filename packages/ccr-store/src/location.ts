// Making the store's place safe. Which path that is belongs to the caller (the binary reads its
// flags and environment); this module takes the path. prepareStoreLocation creates the directory
// 0700 and the database file 0600, tightens an existing database file (and its -wal/-shm) to 0600,
// and refuses a symlinked or hard-linked path, a non-regular file, a world-writable directory, a
// read-only place.
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
} from "node:fs";
import { dirname, isAbsolute } from "node:path";
import { CcrStoreError } from "./errors.js";

/** Whether the store's file can be written, or only read (read-only disk, directory or file). */
export type StoreAccess = "read-write" | "read-only";

/**
 * Make `path` ready for the SQLite backend: create its directory (0700) and the file (0600) if
 * missing, tighten an existing file to 0600, and refuse anything unsafe with store_unsafe_path.
 * An existing file that can be read but not written (EROFS, EACCES, EPERM) is "read-only".
 */
export function prepareStoreLocation(path: string): StoreAccess {
  if (typeof path !== "string" || !isAbsolute(path)) {
    throw new CcrStoreError(
      "invalid_config",
      `the database path must be absolute, got ${JSON.stringify(path)}`,
    );
  }
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new CcrStoreError("store_open_failed", `cannot create the directory ${dir}`, { cause: err });
  }
  const dirStat = statOrNull(dir);
  if (!dirStat?.isDirectory()) {
    throw new CcrStoreError("store_unsafe_path", `${dir} is not a directory`);
  }
  if (process.platform !== "win32" && (dirStat.mode & 0o002) !== 0) {
    throw new CcrStoreError(
      "store_unsafe_path",
      `${dir} is writable by every user, so another user could replace the database; use a private directory (chmod 700)`,
    );
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const st = lstatOrNull(file);
    if (st === null) continue;
    if (st.isSymbolicLink()) {
      throw new CcrStoreError(
        "store_unsafe_path",
        `${file} is a symlink; point the store at the real file instead`,
      );
    }
    if (!st.isFile()) throw new CcrStoreError("store_unsafe_path", `${file} is not a regular file`);
    if (st.nlink > 1) {
      // SQLite keeps the -wal beside the name it was opened by: two names for one database mean
      // two WALs, and processes using different names would corrupt it.
      throw new CcrStoreError(
        "store_unsafe_path",
        `${file} has ${st.nlink} hard links; a database reached by two names can be corrupted. Remove the other links or copy the file`,
      );
    }
    if ((st.mode & 0o077) !== 0) chmodOrFail(file);
  }
  if (lstatOrNull(path) === null) createPrivateFile(path);
  // SQLite would quietly open an unwritable file read-only and fail every put later; say it now,
  // and let the caller open it read-only so that what it holds can still be read.
  // access() sees a read-only mount and an immutable file even for root.
  for (const p of [dir, path]) {
    try {
      accessSync(p, constants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (!READ_ONLY_CODES.has(code ?? "") || !readable(path)) {
        throw new CcrStoreError(
          "store_open_failed",
          `${p} is read-only (${code}); check the disk and permissions, or use another path`,
          { cause: err },
        );
      }
      return "read-only";
    }
  }
  return "read-write";
}

/** The errors access(W_OK) gives for a place we may read but not write. */
const READ_ONLY_CODES = new Set(["EROFS", "EACCES", "EPERM"]);

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function createPrivateFile(path: string): void {
  let fd: number;
  try {
    // O_EXCL|O_NOFOLLOW: a file or symlink planted since the check above makes this fail, not follow.
    fd = openSync(
      path,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") {
      // Someone created it between our look and our create: inspect what is there now.
      prepareStoreLocation(path);
      return;
    }
    throw new CcrStoreError("store_open_failed", `cannot create the database file ${path}`, { cause: err });
  }
  try {
    // The umask can only narrow 0600, but a filesystem may ignore the mode; say so if it did.
    if ((fstatSync(fd).mode & 0o077) !== 0) chmodOrFail(path);
  } finally {
    closeSync(fd);
  }
}

function chmodOrFail(file: string): void {
  try {
    chmodSync(file, 0o600);
  } catch (err) {
    throw new CcrStoreError("store_unsafe_path", `${file} is readable by others and cannot be made 0600`, {
      cause: err,
    });
  }
}

/** The file's own status (a symlink is seen as one), or null when nothing is there. */
function lstatOrNull(p: string): Stats | null {
  return inspect(p, lstatSync);
}

/** Follows symlinks: a symlinked directory (macOS /tmp) is fine, a symlinked database is not. */
function statOrNull(p: string): Stats | null {
  return inspect(p, statSync);
}

function inspect(p: string, stat: (p: string) => Stats): Stats | null {
  try {
    return stat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CcrStoreError("store_open_failed", `cannot inspect ${p}`, { cause: err });
  }
}
