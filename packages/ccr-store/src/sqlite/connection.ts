// One connection per database file per process, shared by every store opened on it and closed
// with the last one. Files are told apart by device and inode, not by name, so a file moved away
// and replaced is never confused with its successor. Opening sets a busy timeout, WAL and the
// synchronous level, then brings our schema up to date (a read-only file is only inspected);
// every SQLite failure leaves here as a typed CcrStoreError (SQLITE_BUSY included, after
// retrying), never as a driver's raw error.
import { statSync } from "node:fs";
import { CcrStoreError } from "../errors.js";
import { pragma, type SqlConnection, type SqlDriver, sqliteCode } from "./driver.js";
import { ensureSchema, inspect } from "./schema.js";

export interface ConnectionOptions {
  path: string;
  busyTimeoutMs: number;
  synchronous: "normal" | "full";
  driver: SqlDriver;
  /** Open without writing a byte (a read-only file or directory): no WAL switch, no migration. */
  readOnly: boolean;
}

/** A borrowed connection: the file it was opened on (`identity`) and how to give it back. */
export interface Lease {
  db: SqlConnection;
  readOnly: boolean;
  /** `dev:ino` of the file the connection has open. */
  identity: string;
  release(): void;
}

interface Shared {
  db: SqlConnection;
  readOnly: boolean;
  refs: number;
}

const open = new Map<string, Shared>();

/** `dev:ino` of the file now at `path`, or null when nothing is there. */
export function fileIdentity(path: string): string | null {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw toStoreError(err, `cannot inspect ${path}`, "store_io_failed");
  }
}

/**
 * Borrow the process's connection to `opts.path`, opening it on first use. Later stores on the
 * same file share it with the first opener's driver and busy timeout.
 */
export function acquire(opts: ConnectionOptions): Lease {
  const key = fileIdentity(opts.path);
  if (key === null)
    throw new CcrStoreError("store_open_failed", `cannot open ${opts.path}: it does not exist`);
  let shared = open.get(key);
  if (!shared) {
    shared = { db: connect(opts), readOnly: opts.readOnly, refs: 0 };
    open.set(key, shared);
  } else if (opts.synchronous === "full" && !shared.readOnly) {
    // The connection is shared: a store that asks for more durability gets it, for everyone.
    shared.db.exec("PRAGMA synchronous = FULL");
  }
  shared.refs += 1;
  const entry = shared;
  let released = false;
  return {
    db: entry.db,
    readOnly: entry.readOnly,
    identity: key,
    release: () => {
      if (released) return;
      released = true;
      entry.refs -= 1;
      if (entry.refs === 0) {
        open.delete(key);
        entry.db.close();
      }
    },
  };
}

function connect(opts: ConnectionOptions): SqlConnection {
  let db: SqlConnection;
  try {
    db = opts.driver.open(opts.path, { busyTimeoutMs: opts.busyTimeoutMs, readOnly: opts.readOnly });
  } catch (err) {
    throw toStoreError(err, `cannot open ${opts.path}`, "store_open_failed");
  }
  try {
    withBusyRetry(
      () => {
        // Decide whether the file is usable before changing a byte of it (WAL rewrites the header).
        const version = inspect(db, opts.path);
        if (opts.readOnly) {
          if (version === 0) {
            throw new CcrStoreError(
              "store_open_failed",
              `${opts.path} is read-only and holds no CCR store yet; make it writable or use another path`,
            );
          }
          return;
        }
        const mode = pragma(db, "journal_mode = WAL");
        if (String(mode).toLowerCase() !== "wal") {
          throw new CcrStoreError(
            "store_open_failed",
            `${opts.path} cannot use WAL (journal mode stays ${String(mode)})`,
          );
        }
        db.exec(`PRAGMA synchronous = ${opts.synchronous === "full" ? "FULL" : "NORMAL"}`);
        ensureSchema(db, opts.path);
      },
      `cannot open ${opts.path}`,
      opts.busyTimeoutMs,
    );
  } catch (err) {
    db.close();
    throw toStoreError(err, `cannot open ${opts.path}`, "store_open_failed");
  }
  return db;
}

/**
 * Run fn, retrying SQLite BUSY/LOCKED results until `waitMs` has passed in all. The busy handler
 * already waits inside SQLite; this catches the results it does not wait for (BUSY_SNAPSHOT,
 * BUSY_RECOVERY, a lock taken while WAL is being set up), so no raw SQLITE_BUSY reaches a caller.
 */
export function withBusyRetry<T>(fn: () => T, what: string, waitMs: number): T {
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      const left = waitMs - (performance.now() - started);
      if (!isBusy(err) || left <= 0) throw toStoreError(err, what, "store_io_failed");
      sleepMs(Math.min(left, 2 * attempt));
    }
  }
}

function isBusy(err: unknown): boolean {
  const code = sqliteCode(err);
  return code !== null && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
}

/** Map any failure to a CcrStoreError with a message that says what to do next. */
function toStoreError(
  err: unknown,
  what: string,
  fallback: "store_open_failed" | "store_io_failed",
): CcrStoreError {
  if (err instanceof CcrStoreError) return err;
  const code = sqliteCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  if (code === null) return new CcrStoreError(fallback, `${what}: ${detail}`, { cause: err });
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new CcrStoreError(
      "store_busy",
      `${what}: the database stayed locked by another connection past the busy timeout (${code}); retry, or raise busyTimeoutMs`,
      { cause: err },
    );
  }
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return new CcrStoreError(
      "store_corrupt",
      `${what}: the file is not a usable SQLite database (${code}); it was left untouched. Move it aside or use another path`,
      { cause: err },
    );
  }
  if (code.startsWith("SQLITE_READONLY")) {
    return new CcrStoreError(
      fallback,
      `${what}: the database is read-only (${code}); check the disk and file permissions`,
      { cause: err },
    );
  }
  if (code === "SQLITE_FULL") {
    return new CcrStoreError(fallback, `${what}: the disk is full (${code})`, { cause: err });
  }
  if (code.startsWith("SQLITE_IOERR") || code === "SQLITE_CANTOPEN") {
    return new CcrStoreError(
      fallback,
      `${what}: ${detail} (${code}); nothing was half-written. Check the disk and the permissions of the database and its -wal/-shm files, then retry`,
      { cause: err },
    );
  }
  return new CcrStoreError(fallback, `${what}: ${detail} (${code})`, { cause: err });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
