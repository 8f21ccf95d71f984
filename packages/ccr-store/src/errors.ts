// The one error type of @caveman/ccr-store. Every failure the store reports is a CcrStoreError
// whose `code` is stable snake_case (safe to match on and to show on the wire); the message says
// what happened and what to do next; the underlying fault, if any, rides in `cause`.

/** Stable error codes; callers match on these, never on messages. */
export type CcrStoreErrorCode =
  /** The text is not a CCR handle in any accepted spelling. */
  | "invalid_handle"
  /** The original cannot be stored byte-exactly (wrong type, or a string with lone surrogates). */
  | "invalid_original"
  /** The metadata has an unknown key or a value of the wrong type or range. */
  | "invalid_meta"
  /** An option or an environment value is malformed (relative path, unknown flag value, …). */
  | "invalid_config"
  /** The original alone is larger than the store can ever hold. */
  | "original_too_large"
  /** The put would exceed the byte budget and no idle entries can be dropped to make room. */
  | "store_full"
  /** A stored record does not match its hash; its bytes are never returned. */
  | "store_corrupt"
  /** The database could not be opened or used (locked, read-only, not a database, I/O error). */
  | "store_open_failed"
  /** The file holds tables under our names with a layout we do not know, or a newer schema. */
  | "store_foreign_schema"
  /** The path is a symlink or has other hard links, its directory is world-writable, or it is not a regular file. */
  | "store_unsafe_path"
  /** A read or write failed after the store was open (disk full, read-only, I/O error). */
  | "store_io_failed"
  /** Another process held the database lock for longer than the busy timeout. */
  | "store_busy"
  /** The store was used after close(). */
  | "store_closed"
  /** The handle was stored but its lifetime (idle window or maximum age) ran out; terminal. */
  | "handle_expired"
  /** A remote store (the team store) cannot be reached or refused us; the message says what to do. */
  | "store_unavailable"
  /** No SQLite driver loads in this process (no node:sqlite, and better-sqlite3's binding fails). */
  | "store_driver_unavailable"
  /** The database can be read but not written (read-only disk, directory or file): puts are refused. */
  | "store_read_only"
  /** The database file was deleted or replaced while open and a new one could not be made. */
  | "store_vanished";

/** A typed failure of the CCR store. */
export class CcrStoreError extends Error {
  override readonly name = "CcrStoreError";
  readonly code: CcrStoreErrorCode;

  constructor(code: CcrStoreErrorCode, message: string, options?: ErrorOptions) {
    super(`${code}: ${message}`, options);
    this.code = code;
  }
}

/** True when `err` is a CcrStoreError, optionally with the given code. */
export function isCcrStoreError(err: unknown, code?: CcrStoreErrorCode): err is CcrStoreError {
  return err instanceof CcrStoreError && (code === undefined || err.code === code);
}
