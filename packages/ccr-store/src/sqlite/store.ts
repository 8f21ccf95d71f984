// The SQLite backend of CcrStore, on either driver (node:sqlite or better-sqlite3). Writes take
// the lock up front (BEGIN IMMEDIATE), so the budget check, the room-making and the insert are one
// atomic step across processes and never hit a deferred-upgrade SQLITE_BUSY. Gets read without a
// transaction, verify the bytes against the stored SHA-256 and the handle, and only then touch
// last_access_at/hits in a one-line write.
// The file cannot vanish silently: before each put (and on a get that misses) the file now at the
// path is compared with the one open (device and inode). If it was deleted or replaced, the store
// opens the file now there (creating it), carries over the originals it held, and only then
// stores; if that fails, the put is refused with store_vanished, so no handle is handed out that
// other processes could not resolve. A file that can only be read serves gets; puts are refused
// with store_read_only.
import { CcrStoreError } from "../errors.js";
import { handleFromSha256, requireHandle, sha256Hex } from "../handle.js";
import { prepareStoreLocation } from "../location.js";
import type { Outbox } from "../outbox.js";
import { acceptPut, type NormalizedMeta, now, positiveInt, resolvePolicy } from "../policy.js";
import type {
  CcrMeta,
  CcrRecord,
  CcrStats,
  CcrStore,
  OriginalInput,
  PutResult,
  StorePolicyOptions,
} from "../types.js";
import { acquire, fileIdentity, type Lease, withBusyRetry } from "./connection.js";
import { type SqliteDriverChoice, scalar, transaction } from "./driver.js";
import { sqliteOutbox } from "./outbox.js";
import { putRow, type Row, type Statements, statements } from "./rows.js";
import { T_OUTBOX } from "./schema.js";
import { selectDriver } from "./select.js";

/** Options of openSqliteStore. */
export interface SqliteStoreOptions extends StorePolicyOptions {
  /** Absolute path of the database file (the caller decides where; see prepareStoreLocation). */
  path: string;
  /** How long to wait for another process's lock before store_busy. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** "normal" survives a process crash; "full" also a power cut, at an fsync per put. Default "normal". */
  synchronous?: "normal" | "full";
  /** "auto" (default): node:sqlite when this Node has it (22.13+), else better-sqlite3. */
  driver?: SqliteDriverChoice;
  /** Path of a better-sqlite3 .node file, for launchers that ship their own build. */
  nativeBinding?: string;
}

/** The SQLite store, with the outbox its file holds for every process that shares it. */
export interface SqliteCcrStore extends CcrStore {
  readonly outbox: Outbox;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const DRIVER_CHOICES: readonly SqliteDriverChoice[] = ["auto", "node:sqlite", "better-sqlite3"];

/**
 * Open (creating if needed) the store at `opts.path`. Throws store_unsafe_path, store_open_failed,
 * store_corrupt, store_foreign_schema, store_busy or store_driver_unavailable; the caller may fall
 * back to openMemoryStore. A file that can only be read opens read-only (`stats().writable` false).
 */
export function openSqliteStore(opts: SqliteStoreOptions): SqliteCcrStore {
  if (opts === null || typeof opts !== "object") {
    throw new CcrStoreError("invalid_config", "openSqliteStore needs an options object with a path");
  }
  const policy = resolvePolicy(opts);
  const synchronous = opts.synchronous ?? "normal";
  if (synchronous !== "normal" && synchronous !== "full") {
    throw new CcrStoreError(
      "invalid_config",
      `synchronous must be "normal" or "full", got ${String(synchronous)}`,
    );
  }
  const choice = opts.driver ?? "auto";
  if (!DRIVER_CHOICES.includes(choice)) {
    throw new CcrStoreError(
      "invalid_config",
      `driver must be one of ${DRIVER_CHOICES.join(", ")}, got ${String(choice)}`,
    );
  }
  const busyTimeoutMs = positiveInt("busyTimeoutMs", opts.busyTimeoutMs, DEFAULT_BUSY_TIMEOUT_MS);
  const driver = selectDriver(choice, opts.nativeBinding);
  const path = opts.path;
  const lease = (): Lease =>
    acquire({
      path,
      busyTimeoutMs,
      synchronous,
      driver,
      readOnly: prepareStoreLocation(path) === "read-only",
    });
  let conn = lease();
  let sql = statements(conn.db);
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new CcrStoreError("store_closed", `the store at ${path} was closed; open it again`);
  };

  /** Carry every original the old file holds into the new one, as far as the budget allows. */
  const carryOver = (from: Statements, to: Statements): void => {
    const handles = from.handles.all().map((r) => String(r.handle));
    for (const handle of handles) {
      const row = from.find.get(handle) as Row | undefined;
      if (row === undefined || sha256Hex(row.original) !== row.sha256) continue;
      // Verified just above, so the row is already a prepared original.
      const verified = { bytes: row.original, sha256: row.sha256, handle: handleFromSha256(row.sha256) };
      const meta: NormalizedMeta = {
        kind: row.kind,
        producer: row.producer,
        tokensIn: row.tokens_in,
        tokensOut: row.tokens_out,
        createdAt: row.created_at,
      };
      try {
        withBusyRetry(
          () => transaction(to.db, "immediate", () => putRow(to, policy, verified, meta)),
          `carry ${handle} into ${path}`,
          busyTimeoutMs,
        );
      } catch (err) {
        // A full new file keeps what fit; anything else is a real fault of the new file.
        if (!(err instanceof CcrStoreError && err.code === "store_full")) throw err;
      }
    }
    // What still had to reach a team store still has to, from the new file.
    const rows = from.db.prepare(`SELECT target, handle, queued_at FROM ${T_OUTBOX}`).all();
    const add = to.db.prepare(`INSERT INTO ${T_OUTBOX} (target, handle, queued_at, due_at, attempts)
      SELECT ?, ?, ?, 0, 0 WHERE EXISTS (SELECT 1 FROM caveman_ccr_entries WHERE handle = ?)
      ON CONFLICT(target, handle) DO NOTHING`);
    for (const r of rows) add.run(r.target!, r.handle!, r.queued_at!, r.handle!);
  };

  /**
   * True when the connection is on the file now at the path, reopening onto a replacement (and
   * carrying our originals over) when it is not. Throws store_vanished when no file can be had.
   */
  const ensureCurrent = (): void => {
    if (fileIdentity(path) === conn.identity) return;
    let next: Lease | undefined;
    try {
      next = lease();
      const nextSql = statements(next.db);
      if (next.identity !== conn.identity && !next.readOnly) carryOver(sql, nextSql);
      conn.release();
      conn = next;
      sql = nextSql;
    } catch (err) {
      // The new file's connection was borrowed for nothing: give it back, or it stays open for
      // the life of the process (a leaked handle, and a -wal that is never cleaned up).
      next?.release();
      const why = err instanceof Error ? err.message : String(err);
      throw new CcrStoreError(
        "store_vanished",
        `the database ${path} was deleted or replaced while open, and no usable file can be made there (${why}); originals stored from now on would be lost, so nothing was stored`,
        { cause: err },
      );
    }
  };

  const readRow = (handle: string): Row | undefined =>
    withBusyRetry(() => sql.find.get(handle) as Row | undefined, `get from ${path}`, busyTimeoutMs);

  const outbox = sqliteOutbox(
    () => {
      ensureOpen();
      return sql.db;
    },
    policy,
    (fn, what) => withBusyRetry(fn, `${what} in ${path}`, busyTimeoutMs),
  );

  return {
    outbox,

    put(original: OriginalInput, meta?: CcrMeta): PutResult {
      ensureOpen();
      const { prepared, meta: m } = acceptPut(original, meta, policy);
      if (conn.readOnly) {
        throw new CcrStoreError(
          "store_read_only",
          `${path} can be read but not written (read-only disk, directory or file); stored originals stay readable, new ones are not stored. Make it writable or use another path`,
        );
      }
      ensureCurrent();
      return withBusyRetry(
        () => transaction(sql.db, "immediate", () => putRow(sql, policy, prepared, m)),
        `put into ${path}`,
        busyTimeoutMs,
      );
    },

    get(handleText: string): CcrRecord | null {
      ensureOpen();
      const handle = requireHandle(handleText);
      let row = readRow(handle);
      if (row === undefined && !conn.readOnly) {
        // A miss may mean the file was replaced: look in the one now at the path. When no file
        // can be had there, the handle is as unknown as the miss said.
        try {
          ensureCurrent();
        } catch {
          return null;
        }
        row = readRow(handle);
      }
      if (row === undefined) return null;
      const actual = sha256Hex(row.original);
      if (
        actual !== row.sha256 ||
        handleFromSha256(actual) !== handle ||
        row.original.byteLength !== row.size
      ) {
        throw new CcrStoreError(
          "store_corrupt",
          `the record for ${handle} in ${path} does not match its hash; its bytes are not returned. Put the original again to repair it`,
        );
      }
      const t = now(policy);
      // Bookkeeping only: a locked or read-only file must not cost the caller verified bytes.
      let touched = !conn.readOnly;
      if (touched) {
        try {
          withBusyRetry(() => sql.hit.run(t, handle), `get from ${path}`, busyTimeoutMs);
        } catch {
          touched = false;
        }
      }
      // A fresh copy the caller may keep (node:sqlite and better-sqlite3 differ in what they hand out).
      const bytes = new Uint8Array(row.original);
      return {
        handle,
        original: bytes,
        size: row.size,
        sha256: row.sha256,
        kind: row.kind,
        producer: row.producer,
        tokensIn: row.tokens_in,
        tokensOut: row.tokens_out,
        createdAt: row.created_at,
        lastAccessAt: touched ? Math.max(t, row.last_access_at) : row.last_access_at,
        hits: touched ? row.hits + 1 : row.hits,
      };
    },

    has(handleText: string): boolean {
      ensureOpen();
      const handle = requireHandle(handleText);
      return withBusyRetry(() => sql.has.get(handle) !== undefined, `has in ${path}`, busyTimeoutMs);
    },

    stats(): CcrStats {
      ensureOpen();
      return withBusyRetry(
        () =>
          transaction(sql.db, "deferred", () => ({
            backend: "sqlite" as const,
            driver: sql.db.driver,
            writable: !conn.readOnly,
            entries: Number(scalar(sql.total, "entries")),
            bytes: Number(scalar(sql.total, "bytes")),
            hits: Number(scalar(sql.total, "hits")),
            budgetBytes: policy.budgetBytes,
            idleMs: policy.idleMs,
          })),
        `stats of ${path}`,
        busyTimeoutMs,
      );
    },

    close(): void {
      if (closed) return;
      closed = true;
      conn.release();
    },
  };
}
