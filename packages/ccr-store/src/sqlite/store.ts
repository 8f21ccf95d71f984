// The SQLite backend of CcrStore. Writes take the lock up front (BEGIN IMMEDIATE), so the budget
// check, the room-making and the insert are one atomic step across processes and never hit a
// deferred-upgrade SQLITE_BUSY. Gets read without a transaction, verify the bytes against the
// stored SHA-256 and the handle, and only then touch last_access_at/hits in a one-line write.
import type Database from "better-sqlite3";
import { CcrStoreError } from "../errors.js";
import { handleFromSha256, originalBytes, requireHandle, sha256Hex } from "../handle.js";
import { prepareStoreLocation } from "../location.js";
import {
  checkOriginalArgument,
  checkSize,
  type IdleEntry,
  type NormalizedMeta,
  normalizeMeta,
  now,
  planRoom,
  positiveInt,
  resolvePolicy,
} from "../policy.js";
import type { CcrMeta, CcrRecord, CcrStats, CcrStore, PutResult, StorePolicyOptions } from "../types.js";
import { acquire, withBusyRetry } from "./connection.js";
import { T_ENTRIES, T_META } from "./schema.js";

/** Options of openSqliteStore. */
export interface SqliteStoreOptions extends StorePolicyOptions {
  /** Absolute path of the database file; see resolveStoreLocation. */
  path: string;
  /** How long to wait for another process's lock before store_busy. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** "normal" survives a process crash; "full" also a power cut, at an fsync per put. Default "normal". */
  synchronous?: "normal" | "full";
  /** Path of a better-sqlite3 .node file, for launchers that ship their own build. */
  nativeBinding?: string;
}

interface Row {
  sha256: string;
  size: number;
  kind: string | null;
  producer: string | null;
  tokens_in: number | null;
  tokens_out: number | null;
  created_at: number;
  last_access_at: number;
  hits: number;
  original: Buffer;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Open (creating if needed) the store at `opts.path`. Throws store_unsafe_path, store_open_failed,
 * store_corrupt, store_foreign_schema or store_busy; the caller may fall back to openMemoryStore.
 */
export function openSqliteStore(opts: SqliteStoreOptions): CcrStore {
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
  prepareStoreLocation(opts.path);
  const busyTimeoutMs = positiveInt("busyTimeoutMs", opts.busyTimeoutMs, DEFAULT_BUSY_TIMEOUT_MS);
  const conn = acquire({
    path: opts.path,
    busyTimeoutMs,
    synchronous,
    nativeBinding: opts.nativeBinding,
  });
  const db: Database.Database = conn.db;
  const sql = {
    find: db.prepare(`SELECT sha256, size, kind, producer, tokens_in, tokens_out, created_at, last_access_at, hits, original
      FROM ${T_ENTRIES} WHERE handle = ?`),
    findStored: db.prepare(`SELECT sha256, size, original FROM ${T_ENTRIES} WHERE handle = ?`),
    has: db.prepare(`SELECT 1 FROM ${T_ENTRIES} WHERE handle = ?`).pluck(),
    touch: db.prepare(`UPDATE ${T_ENTRIES} SET last_access_at = max(last_access_at, ?) WHERE handle = ?`),
    hit: db.prepare(`UPDATE ${T_ENTRIES} SET last_access_at = max(last_access_at, ?), hits = hits + 1
      WHERE handle = ?`),
    repair: db.prepare(`UPDATE ${T_ENTRIES} SET sha256 = ?, size = ?, original = ?,
      last_access_at = max(last_access_at, ?) WHERE handle = ?`),
    total: db.prepare(`SELECT value FROM ${T_META} WHERE key = ?`).pluck(),
    idle: db.prepare(
      `SELECT handle, size FROM ${T_ENTRIES} WHERE last_access_at < ? ORDER BY last_access_at`,
    ),
    drop: db.prepare(`DELETE FROM ${T_ENTRIES} WHERE handle = ?`),
    insert: db.prepare(`INSERT INTO ${T_ENTRIES} (handle, sha256, size, kind, producer, tokens_in, tokens_out,
      created_at, stored_at, last_access_at, hits, original) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`),
  };
  let closed = false;
  const ensureOpen = (): void => {
    if (closed)
      throw new CcrStoreError("store_closed", `the store at ${opts.path} was closed; open it again`);
  };

  // Runs under the write lock: hashing and validation happen before, in put().
  const putTx = db.transaction((bytes: Uint8Array, sha256: string, m: NormalizedMeta): PutResult => {
    const handle = handleFromSha256(sha256);
    const t = now(policy);
    const stored = sql.findStored.get(handle) as Pick<Row, "sha256" | "size" | "original"> | undefined;
    if (stored !== undefined) {
      // Same handle: either our bytes are already there, or a damaged record that these bytes repair.
      // Every column get() checks takes part, or a record damaged in one of them stays broken.
      const intact =
        stored.sha256 === sha256 &&
        stored.size === bytes.byteLength &&
        Buffer.isBuffer(stored.original) &&
        Buffer.compare(stored.original, bytes) === 0;
      if (intact) sql.touch.run(t, handle);
      else sql.repair.run(sha256, bytes.byteLength, bytes, t, handle);
      return { handle, created: false };
    }
    const used = sql.total.get("bytes") as number;
    const cutoff = t - policy.idleMs;
    // Lazy: iterate() runs the query at once and holds the connection, so only open it when
    // room is actually needed; for..of in planRoom closes it before the deletes below.
    function* idle(): Generator<IdleEntry> {
      yield* sql.idle.iterate(cutoff) as Iterable<IdleEntry>;
    }
    const drop = planRoom(used, bytes.byteLength, policy, idle());
    for (const h of drop) sql.drop.run(h);
    const createdAt = m.createdAt ?? t;
    sql.insert.run(
      handle,
      sha256,
      bytes.byteLength,
      m.kind,
      m.producer,
      m.tokensIn,
      m.tokensOut,
      createdAt,
      t,
      t,
      bytes,
    );
    return { handle, created: true };
  });

  return {
    put(original: string | Uint8Array, meta?: CcrMeta): PutResult {
      ensureOpen();
      checkOriginalArgument(original, policy);
      const bytes = originalBytes(original);
      const m = normalizeMeta(meta);
      checkSize(bytes.byteLength, policy);
      const sha256 = sha256Hex(bytes);
      return withBusyRetry(() => putTx.immediate(bytes, sha256, m), `put into ${opts.path}`, busyTimeoutMs);
    },

    get(handleText: string): CcrRecord | null {
      ensureOpen();
      const handle = requireHandle(handleText);
      const row = withBusyRetry(
        () => sql.find.get(handle) as Row | undefined,
        `get from ${opts.path}`,
        busyTimeoutMs,
      );
      if (row === undefined) return null;
      const actual = sha256Hex(row.original);
      if (
        actual !== row.sha256 ||
        handleFromSha256(actual) !== handle ||
        row.original.byteLength !== row.size
      ) {
        throw new CcrStoreError(
          "store_corrupt",
          `the record for ${handle} in ${opts.path} does not match its hash; its bytes are not returned. Put the original again to repair it`,
        );
      }
      const t = now(policy);
      // Bookkeeping only: a locked or read-only file must not cost the caller verified bytes.
      let touched = true;
      try {
        withBusyRetry(() => sql.hit.run(t, handle), `get from ${opts.path}`, busyTimeoutMs);
      } catch {
        touched = false;
      }
      return {
        handle,
        original: new Uint8Array(row.original.buffer, row.original.byteOffset, row.original.byteLength),
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
      return withBusyRetry(() => sql.has.get(handle) !== undefined, `has in ${opts.path}`, busyTimeoutMs);
    },

    stats(): CcrStats {
      ensureOpen();
      return withBusyRetry(
        () =>
          db.transaction(() => ({
            backend: "sqlite" as const,
            entries: sql.total.get("entries") as number,
            bytes: sql.total.get("bytes") as number,
            hits: sql.total.get("hits") as number,
            budgetBytes: policy.budgetBytes,
            idleMs: policy.idleMs,
          }))(),
        `stats of ${opts.path}`,
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
