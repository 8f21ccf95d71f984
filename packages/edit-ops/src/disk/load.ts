// Loading target files for the editor: the only module that reads them. `withFile` pins the
// file's directory (proven inside the roots, see confine.ts), takes the cross-process lock for a
// real edit (filelock.ts), and reads the file through a descriptor proven inside the roots; it
// refuses what must not be edited (too large — judged by fstat before a byte is read — binary,
// not a regular file). What it hands on is typed by what it found: a file that exists has its
// bytes, hash and (when decoded) lines; one that does not has none of them.

import type { Stats } from "node:fs";
import { fstatSync } from "node:fs";
import { basename, dirname } from "node:path";
import { type Doc, decode, sha256 } from "../doc/lines.js";
import type { Snapshots } from "../doc/snapshots.js";
import { EditError, fsError } from "../errors.js";
import { timed } from "../phases.js";
import { type DirRef, pinDir } from "./confine.js";
import { openEntry } from "./entries.js";
import { type FileLock, lockFile } from "./filelock.js";
import type { JournalDeps } from "./journal.js";
import type { ResolvedPath, Root } from "./roots.js";

interface Place {
  at: ResolvedPath;
  /** The cross-process lock, held for a real (non-preview) edit. */
  lock: FileLock | null;
}

/** A file that exists, as read: bytes and their sha256. */
export interface FileBytes extends Place {
  exists: true;
  stats: Stats;
  bytes: Buffer;
  hash: string;
  /** The file's directory, pinned. */
  dir: DirRef;
}

/** An existing text file with its decoded lines. */
export interface TextFile extends FileBytes {
  doc: Doc;
}

/** A file that does not exist (yet). */
export interface NoFile extends Place {
  exists: false;
  stats: null;
  bytes: null;
  hash: null;
  /** Its directory, pinned; null when that does not exist either. */
  dir: DirRef | null;
}

export interface FileDeps {
  roots: Root[];
  maxFileBytes: number;
  lockTimeoutMs: number;
  randomHex: () => string;
  journal: JournalDeps;
  /** Documents of recently seen bytes (see snapshots.ts). */
  snapshots: Snapshots;
}

/** What to load: `text` (must exist, decoded), `text-or-none` (may be missing), `bytes-or-none`. */
type Mode = "text" | "text-or-none" | "bytes-or-none";
type Found<M extends Mode> = M extends "text"
  ? TextFile
  : M extends "text-or-none"
    ? TextFile | NoFile
    : FileBytes | NoFile;

/** Load one snapshot of the file, run `fn` on it, then release the lock and the directory. */
export async function withFile<M extends Mode, T>(
  deps: FileDeps,
  at: ResolvedPath,
  opts: { mode: M; lock: boolean },
  fn: (file: Found<M>) => Promise<T>,
): Promise<T> {
  const dir = await pinDir(dirname(at.real), deps.roots, at.path);
  let lock: FileLock | null = null;
  try {
    if (opts.lock && dir) {
      const pinned = dir;
      lock = await timed("lock", () =>
        lockFile(pinned, basename(at.real), {
          timeoutMs: deps.lockTimeoutMs,
          shown: at.path,
          randomHex: deps.randomHex,
        }),
      );
    }
    const found = await timed("read", () => readFile(deps, at, dir, lock, opts.mode !== "bytes-or-none"));
    if (!found.exists && opts.mode === "text") {
      throw new EditError("not_found", `${at.path} does not exist; create it with write`, { path: at.path });
    }
    return await fn(found as Found<M>);
  } finally {
    await lock?.release();
    await dir?.close();
  }
}

async function readFile(
  deps: FileDeps,
  at: ResolvedPath,
  dir: DirRef | null,
  lock: FileLock | null,
  text: boolean,
): Promise<FileBytes | TextFile | NoFile> {
  const handle = dir ? await openEntry(dir, basename(at.real), at.path) : null;
  if (!dir || !handle) return { exists: false, at, stats: null, bytes: null, hash: null, dir, lock };
  try {
    const stats = fstatSync(handle.fd);
    if (!stats.isFile()) {
      throw new EditError("invalid_argument", `${at.path} is not a regular file (a directory or device)`, {
        path: at.path,
      });
    }
    // Judged by fstat before a byte is read: a huge file costs no memory to refuse.
    if (stats.size > deps.maxFileBytes) {
      throw new EditError(
        "too_large",
        `${at.path} is ${stats.size} bytes, over the ${deps.maxFileBytes}-byte limit; edit it with another tool`,
        { path: at.path },
      );
    }
    let read: Awaited<ReturnType<Snapshots["read"]>>;
    try {
      read = await deps.snapshots.read(at.real, handle, stats.size);
    } catch (err) {
      throw fsError(err, at.path, "read");
    }
    const { bytes, known } = read;
    const file = { exists: true as const, at, stats, bytes, dir, lock };
    if (known) return { ...file, hash: known.hash, doc: known.doc };
    const hash = sha256(bytes);
    if (!text) return { ...file, hash };
    const doc = decode(bytes, at.path);
    deps.snapshots.remember(at.real, bytes, hash, doc);
    return { ...file, hash, doc };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Refuse with `conflict` unless the file exists with a hash that starts with `expected`. */
export function checkExpected(file: FileBytes | NoFile, expected: string | undefined): void {
  if (expected === undefined) return;
  const path = file.at.path;
  if (!file.exists) {
    throw new EditError(
      "conflict",
      `${path} does not exist, but expected_hash ${expected} was given; read it again`,
      { path },
    );
  }
  if (!file.hash.startsWith(expected)) {
    throw new EditError(
      "conflict",
      `${path} changed since it was read (hash is now ${file.hash.slice(0, 16)}, expected ${expected.slice(0, 16)}); ` +
        "read it again and redo the edit",
      { path, hash: file.hash },
    );
  }
}
