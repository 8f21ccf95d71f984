// The seam between the store and a SQLite library. The store speaks only this small synchronous
// interface (exec, prepared statements returning plain rows, close); two drivers implement it:
// Node's built-in `node:sqlite` (Node 22.13+) and better-sqlite3 (a native addon, for Node 20).
// Both open the same file format, so a database written by one is read by the other. Errors a
// driver throws keep their own shape; `sqliteCode` turns either into a `SQLITE_*` name.
// A later asynchronous backend (a network store) would sit beside this seam, not inside it.
import { existsSync } from "node:fs";

/** The SQLite drivers this package can use. */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/** Which driver to use: "auto" takes node:sqlite when the running Node has it, else better-sqlite3. */
export type SqliteDriverChoice = "auto" | SqliteDriverName;

/** A value SQLite stores or returns. BLOBs come back as a Uint8Array (a Buffer from better-sqlite3). */
export type SqlValue = string | number | bigint | null | Uint8Array;

type SqlRow = Record<string, SqlValue>;

/** A prepared statement: positional parameters, plain rows. */
export interface SqlStatement {
  run(...params: SqlValue[]): void;
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
  /** Rows one at a time; leaving the loop early releases the statement. */
  iterate(...params: SqlValue[]): IterableIterator<SqlRow>;
}

/** A statement as either library hands it out (their own classes share this shape). */
export interface NativeStatement {
  run(...params: SqlValue[]): unknown;
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  iterate(...params: SqlValue[]): IterableIterator<unknown>;
}

/** A library's statement behind the seam's SqlStatement. */
export function adaptStatement(stmt: NativeStatement): SqlStatement {
  return {
    run: (...p) => {
      stmt.run(...p);
    },
    get: (...p) => stmt.get(...p) as SqlRow | undefined,
    all: (...p) => stmt.all(...p) as SqlRow[],
    iterate: (...p) => stmt.iterate(...p) as IterableIterator<SqlRow>,
  };
}

/** One open connection to a database file. */
export interface SqlConnection {
  readonly driver: SqliteDriverName;
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

export interface ConnectOptions {
  /** Wait this long for another connection's lock before SQLITE_BUSY. */
  busyTimeoutMs: number;
  /** Open without write access (the file or its directory cannot be written). */
  readOnly: boolean;
}

/** A loaded driver: opens connections to existing files. */
export interface SqlDriver {
  readonly name: SqliteDriverName;
  /** Open an existing database file. Throws the library's own error when it cannot. */
  open(path: string, opts: ConnectOptions): SqlConnection;
}

/**
 * True when a read-only open failed only because SQLite could not make the -shm file of a WAL
 * database (SQLITE_CANTOPEN in a directory we cannot write) and no -wal file holds commits that
 * are not yet in the database file itself: then the file alone is the whole database.
 */
export function readOnlyWithoutWal(err: unknown, path: string, opts: ConnectOptions): boolean {
  return opts.readOnly && sqliteCode(err) === "SQLITE_CANTOPEN" && !existsSync(`${path}-wal`);
}

/** The first column of the first row of a statement, or undefined (better-sqlite3's pluck). */
export function scalar(stmt: SqlStatement, ...params: SqlValue[]): SqlValue | undefined {
  const row = stmt.get(...params);
  if (row === undefined) return undefined;
  for (const key in row) return row[key];
  return undefined;
}

/** The value of a pragma, e.g. `pragma(db, "journal_mode = WAL")` -> "wal". */
export function pragma(db: SqlConnection, text: string): SqlValue | undefined {
  return scalar(db.prepare(`PRAGMA ${text}`));
}

/**
 * Run fn inside one transaction. "immediate" takes the write lock up front, so a read-then-write
 * never needs a lock upgrade (which SQLite refuses with SQLITE_BUSY instead of waiting). A fault
 * rolls back; a ROLLBACK that fails because SQLite already rolled back (SQLITE_FULL, say) is moot.
 */
export function transaction<T>(db: SqlConnection, mode: "immediate" | "deferred", fn: () => T): T {
  db.exec(mode === "immediate" ? "BEGIN IMMEDIATE" : "BEGIN");
  let out: T;
  try {
    out = fn();
    db.exec("COMMIT");
  } catch (err) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // No transaction left to roll back; the original fault is what the caller needs.
    }
    throw err;
  }
  return out;
}

// Primary result codes (sqlite3.h), for node:sqlite, which reports only the number.
const PRIMARY: Record<number, string> = {
  1: "ERROR",
  2: "INTERNAL",
  3: "PERM",
  4: "ABORT",
  5: "BUSY",
  6: "LOCKED",
  7: "NOMEM",
  8: "READONLY",
  9: "INTERRUPT",
  10: "IOERR",
  11: "CORRUPT",
  12: "NOTFOUND",
  13: "FULL",
  14: "CANTOPEN",
  15: "PROTOCOL",
  17: "SCHEMA",
  18: "TOOBIG",
  19: "CONSTRAINT",
  20: "MISMATCH",
  21: "MISUSE",
  22: "NOLFS",
  23: "AUTH",
  26: "NOTADB",
};

/**
 * The SQLite result code of a driver's error as a name (`SQLITE_BUSY`, `SQLITE_BUSY_SNAPSHOT`,
 * `SQLITE_NOTADB`, …), or null when the error did not come from SQLite. better-sqlite3 gives the
 * (extended) name as `code`; node:sqlite gives `code: "ERR_SQLITE_ERROR"` and the number as `errcode`.
 */
export function sqliteCode(err: unknown): string | null {
  if (err === null || typeof err !== "object") return null;
  const e = err as { code?: unknown; errcode?: unknown };
  if (typeof e.code === "string" && e.code.startsWith("SQLITE_")) return e.code;
  if (e.code === "ERR_SQLITE_ERROR" && typeof e.errcode === "number") {
    const name = PRIMARY[e.errcode & 0xff];
    return name === undefined ? `SQLITE_${e.errcode}` : `SQLITE_${name}`;
  }
  return null;
}
