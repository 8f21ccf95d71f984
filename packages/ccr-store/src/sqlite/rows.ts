// The SQL of one entry: the prepared statements of a connection, the row they read, and the put
// that runs under the write lock. Contract: putRow is called inside BEGIN IMMEDIATE with an
// original already hashed; it stores the bytes (or repairs a damaged record under the same
// handle, or only touches an intact one) and makes room by dropping idle entries, oldest first.
import { type IdleEntry, type NormalizedMeta, now, type Policy, planRoom } from "../policy.js";
import type { PreparedOriginal, PutResult } from "../types.js";
import { type SqlConnection, type SqlStatement, scalar } from "./driver.js";
import { T_ENTRIES, T_META, T_OUTBOX } from "./schema.js";

export interface Row {
  sha256: string;
  size: number;
  kind: string | null;
  producer: string | null;
  tokens_in: number | null;
  tokens_out: number | null;
  created_at: number;
  last_access_at: number;
  hits: number;
  original: Uint8Array;
}

/** Prepared statements on one connection. */
export function statements(db: SqlConnection) {
  const q = (sql: string): SqlStatement => db.prepare(sql);
  let idle: SqlStatement | undefined;
  return {
    db,
    find: q(`SELECT sha256, size, kind, producer, tokens_in, tokens_out, created_at, last_access_at, hits, original
      FROM ${T_ENTRIES} WHERE handle = ?`),
    findStored: q(`SELECT sha256, size, original FROM ${T_ENTRIES} WHERE handle = ?`),
    has: q(`SELECT 1 AS found FROM ${T_ENTRIES} WHERE handle = ?`),
    handles: q(`SELECT handle FROM ${T_ENTRIES} ORDER BY last_access_at`),
    touch: q(`UPDATE ${T_ENTRIES} SET last_access_at = max(last_access_at, ?) WHERE handle = ?`),
    hit: q(`UPDATE ${T_ENTRIES} SET last_access_at = max(last_access_at, ?), hits = hits + 1
      WHERE handle = ?`),
    repair: q(`UPDATE ${T_ENTRIES} SET sha256 = ?, size = ?, original = ?,
      last_access_at = max(last_access_at, ?) WHERE handle = ?`),
    total: q(`SELECT value FROM ${T_META} WHERE key = ?`),
    // A handle still to be sent to a team store is not idle, however old: its bytes are the only
    // copy. Prepared on first use: a read-only file of an older schema has no outbox to name.
    get idle(): SqlStatement {
      idle ??= q(`SELECT handle, size FROM ${T_ENTRIES} WHERE last_access_at < ?
        AND handle NOT IN (SELECT handle FROM ${T_OUTBOX}) ORDER BY last_access_at`);
      return idle;
    },
    drop: q(`DELETE FROM ${T_ENTRIES} WHERE handle = ?`),
    insert: q(`INSERT INTO ${T_ENTRIES} (handle, sha256, size, kind, producer, tokens_in, tokens_out,
      created_at, stored_at, last_access_at, hits, original) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`),
  };
}
export type Statements = ReturnType<typeof statements>;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), b) === 0;
}

/** Store bytes under the write lock (the caller holds BEGIN IMMEDIATE). Hashing happened before. */
export function putRow(
  sql: Statements,
  policy: Policy,
  { bytes, sha256, handle }: PreparedOriginal,
  m: NormalizedMeta,
): PutResult {
  const t = now(policy);
  const stored = sql.findStored.get(handle) as Pick<Row, "sha256" | "size" | "original"> | undefined;
  if (stored !== undefined) {
    // Same handle: either our bytes are already there, or a damaged record that these bytes repair.
    // Every column get() checks takes part, or a record damaged in one of them stays broken.
    const intact =
      stored.sha256 === sha256 &&
      stored.size === bytes.byteLength &&
      stored.original instanceof Uint8Array &&
      sameBytes(stored.original, bytes);
    if (intact) sql.touch.run(t, handle);
    else sql.repair.run(sha256, bytes.byteLength, bytes, t, handle);
    return { handle, created: false };
  }
  const used = Number(scalar(sql.total, "bytes"));
  const cutoff = t - policy.idleMs;
  // Lazy: the idle scan runs only when room is actually needed (the usual put needs none), and
  // planRoom's for..of releases the statement before the deletes below.
  function* idle(): Generator<IdleEntry> {
    yield* sql.idle.iterate(cutoff) as Iterable<IdleEntry>;
  }
  const drop = planRoom(used, bytes.byteLength, policy, idle());
  for (const h of drop) sql.drop.run(h);
  sql.insert.run(
    handle,
    sha256,
    bytes.byteLength,
    m.kind,
    m.producer,
    m.tokensIn,
    m.tokensOut,
    m.createdAt ?? t,
    t,
    t,
    bytes,
  );
  return { handle, created: true };
}
