// The asynchronous face of the CCR store contract. A remote store (Redis) cannot answer
// synchronously, the local stores (memory, SQLite) can; code that may talk to either (the MCP
// server's compress and retrieve, the tiered store) takes an AsyncCcrStore, and `toAsync` lifts
// a local store into one without changing what it does: every result is the same, every throw
// becomes a rejection with the same CcrStoreError. The contract suite runs on this face, so one
// suite proves every backend.
import type { CcrMeta, CcrRecord, CcrStats, CcrStore, OriginalInput, PutResult } from "./types.js";

/** The CcrStore contract with every answer delivered as a promise. */
export interface AsyncCcrStore {
  /** Store an original (idempotent). Rejects as CcrStore#put throws, plus store_unavailable. */
  put(original: OriginalInput, meta?: CcrMeta): Promise<PutResult>;
  /**
   * The record for a handle, or null when it was never stored (or its trace is gone). Rejects with
   * invalid_handle, store_corrupt, and on stores that track lifetimes handle_expired; a remote
   * store also store_unavailable.
   */
  get(handle: string): Promise<CcrRecord | null>;
  /** True when the handle is held and live. Does not count as a read for the idle window. */
  has(handle: string): Promise<boolean>;
  stats(): Promise<CcrStats>;
  /** Release the store; further calls reject with store_closed. Safe to call twice. */
  close(): Promise<void>;
}

/** Either face of the contract; `await` on any of its results works for both. */
export type AnyCcrStore = CcrStore | AsyncCcrStore;

/** A local store seen through the asynchronous contract (same behaviour, throws become rejections). */
export function toAsync(store: CcrStore): AsyncCcrStore {
  // `async` wrappers turn a synchronous throw into a rejection, as a remote store would report it.
  return {
    put: async (original, meta) => store.put(original, meta),
    get: async (handle) => store.get(handle),
    has: async (handle) => store.has(handle),
    stats: async () => store.stats(),
    close: async () => store.close(),
  };
}
