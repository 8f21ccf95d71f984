// In-process backend for ephemeral sessions and tests. Same contract as the SQLite backend:
// bytes are copied in and out (a caller mutating its buffer cannot change a stored original),
// every get re-verifies the SHA-256, and room is made only by dropping idle entries.
import { CcrStoreError } from "./errors.js";
import { handleFromSha256, requireHandle, sha256Hex } from "./handle.js";
import { acceptPut, type IdleEntry, now, planRoom, resolvePolicy } from "./policy.js";
import type {
  CcrMeta,
  CcrRecord,
  CcrStats,
  CcrStore,
  OriginalInput,
  PutResult,
  StorePolicyOptions,
} from "./types.js";

/** Options of the memory backend. */
export type MemoryStoreOptions = StorePolicyOptions;

/** What the store keeps per handle: the record's fields, with the bytes it copies out on a get. */
type Entry = Omit<CcrRecord, "handle" | "original" | "size"> & { bytes: Uint8Array };

/** Open a store that lives in this process only and is gone when it closes or the process exits. */
export function openMemoryStore(opts: MemoryStoreOptions = {}): CcrStore {
  const policy = resolvePolicy(opts);
  const entries = new Map<string, Entry>();
  let usedBytes = 0;
  let totalHits = 0;
  let closed = false;

  const open = (): void => {
    if (closed) throw new CcrStoreError("store_closed", "this memory store was closed; open a new one");
  };

  // The Map is kept in access order (a touch moves the entry to the end), so the idle entries
  // are a prefix of it: making room costs the entries dropped, not a sort of the whole store.
  // Stopping at the first live entry is also safe if the clock stepped back: it drops less.
  function* idleOldestFirst(cutoff: number): Iterable<IdleEntry> {
    for (const [handle, e] of entries) {
      if (e.lastAccessAt >= cutoff) return;
      yield { handle, size: e.bytes.byteLength };
    }
  }

  const touch = (handle: string, e: Entry, t: number): void => {
    e.lastAccessAt = Math.max(e.lastAccessAt, t);
    entries.delete(handle);
    entries.set(handle, e);
  };

  return {
    put(original: OriginalInput, meta?: CcrMeta): PutResult {
      open();
      const { prepared, meta: m } = acceptPut(original, meta, policy);
      const { bytes, sha256, handle } = prepared;
      const t = now(policy);
      const existing = entries.get(handle);
      if (existing) {
        touch(handle, existing, t);
        return { handle, created: false };
      }
      const size = bytes.byteLength;
      const drop = planRoom(usedBytes, size, policy, idleOldestFirst(t - policy.idleMs));
      for (const h of drop) {
        const gone = entries.get(h);
        if (gone === undefined) continue;
        usedBytes -= gone.bytes.byteLength;
        totalHits -= gone.hits;
        entries.delete(h);
      }
      entries.set(handle, {
        // new Uint8Array(x) copies; Buffer#slice would share the caller's memory.
        bytes: new Uint8Array(bytes),
        sha256,
        kind: m.kind,
        producer: m.producer,
        tokensIn: m.tokensIn,
        tokensOut: m.tokensOut,
        createdAt: m.createdAt ?? t,
        lastAccessAt: t,
        hits: 0,
      });
      usedBytes += size;
      return { handle, created: true };
    },

    get(handleText: string): CcrRecord | null {
      open();
      const handle = requireHandle(handleText);
      const e = entries.get(handle);
      if (!e) return null;
      const actual = sha256Hex(e.bytes);
      if (actual !== e.sha256 || handleFromSha256(actual) !== handle) {
        throw new CcrStoreError(
          "store_corrupt",
          `the record for ${handle} does not match its hash; it is not returned`,
        );
      }
      touch(handle, e, now(policy));
      e.hits += 1;
      totalHits += 1;
      return {
        handle,
        original: new Uint8Array(e.bytes),
        size: e.bytes.byteLength,
        sha256: e.sha256,
        kind: e.kind,
        producer: e.producer,
        tokensIn: e.tokensIn,
        tokensOut: e.tokensOut,
        createdAt: e.createdAt,
        lastAccessAt: e.lastAccessAt,
        hits: e.hits,
      };
    },

    has(handleText: string): boolean {
      open();
      return entries.has(requireHandle(handleText));
    },

    stats(): CcrStats {
      open();
      return {
        backend: "memory",
        writable: true,
        entries: entries.size,
        bytes: usedBytes,
        hits: totalHits,
        budgetBytes: policy.budgetBytes,
        idleMs: policy.idleMs,
      };
    },

    close(): void {
      closed = true;
      entries.clear();
      usedBytes = 0;
      totalHits = 0;
    },
  };
}
