// The CcrStore contract shared by the SQLite and memory backends. Every method is synchronous
// (both SQLite drivers are). A put is idempotent and content-addressed; a get returns the exact bytes
// that were put, verified against their SHA-256, or null when the handle is unknown; nothing is
// evicted except entries idle for longer than the idle window, and only when a put needs room.

/** Milliseconds since the Unix epoch; injected so tests can move time. */
export type Clock = () => number;

/**
 * An original made ready for a store, once: its exact bytes, their SHA-256 and its handle. A
 * caller that needs the handle before storing (to cite it in the compressed text) prepares the
 * original and passes this to `put`, so the bytes are encoded and hashed exactly once. Only values
 * made by `prepareOriginal` are trusted by `put`. Bytes passed in are copied, so the caller may
 * reuse its buffer; `bytes` itself belongs to the prepared value and must not be written to.
 */
export interface PreparedOriginal {
  readonly bytes: Uint8Array;
  /** Full SHA-256 of `bytes`, lowercase hex. */
  readonly sha256: string;
  /** "ccr_" + the first 32 hex digits of `sha256`. */
  readonly handle: string;
}

/** What a put accepts: the original itself, or the same original already prepared. */
export type OriginalInput = string | Uint8Array | PreparedOriginal;

/** What the producer knows about an original. Every field is optional. */
export interface CcrMeta {
  /** Content kind as the engine detected it, e.g. "json", "log", "diff" (at most 64 chars). */
  kind?: string;
  /** The tool, command or program that produced the original (at most 256 chars). */
  producer?: string;
  /** Tokens of the original. */
  tokensIn?: number;
  /** Tokens of the compressed text shown in its place. */
  tokensOut?: number;
  /** When the original was made, ms since epoch; defaults to the store's clock at put time. */
  createdAt?: number;
}

/** Result of a put. */
export interface PutResult {
  /** Canonical handle, "ccr_" + 32 hex. */
  handle: string;
  /** True when this put stored the bytes; false when they were already there. */
  created: boolean;
}

/** A stored original with its metadata. `original` is a fresh copy the caller may keep. */
export interface CcrRecord {
  handle: string;
  original: Uint8Array;
  /** Byte length of the original. */
  size: number;
  /** Full SHA-256 of the original, lowercase hex. */
  sha256: string;
  kind: string | null;
  producer: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  /** From the first put's metadata (or the clock at that put). */
  createdAt: number;
  /** The last put or get of these bytes, this get included. */
  lastAccessAt: number;
  /** Successful gets of this record across every process sharing the store, this one included. */
  hits: number;
}

/** Figures for the whole store (all processes sharing it). */
export interface CcrStats {
  backend: "sqlite" | "memory" | "redis";
  /** The SQLite library in use (sqlite backend only). */
  driver?: "node:sqlite" | "better-sqlite3";
  /** False when the database could only be opened read-only: gets work, puts are refused. */
  writable: boolean;
  entries: number;
  /** Bytes of originals held; this is what the budget counts. */
  bytes: number;
  /** Successful gets of the entries now held. */
  hits: number;
  budgetBytes: number;
  idleMs: number;
}

/** A store of byte-exact originals keyed by content handle. */
export interface CcrStore {
  /** Store an original (idempotent). Throws store_full, original_too_large, invalid_original, invalid_meta. */
  put(original: OriginalInput, meta?: CcrMeta): PutResult;
  /** The record for a handle (any accepted spelling), or null. Throws invalid_handle, store_corrupt. */
  get(handle: string): CcrRecord | null;
  /** True when the handle is held. Does not count as a read for the idle window. */
  has(handle: string): boolean;
  stats(): CcrStats;
  /** Release the store; further calls throw store_closed. Safe to call twice. */
  close(): void;
}

/** Options shared by both backends. */
export interface StorePolicyOptions {
  /** Clock for created/last-access times. Default Date.now. */
  clock?: Clock;
  /** Byte budget for originals. Default 512 MiB. */
  budgetBytes?: number;
  /** An entry untouched for longer than this may be dropped to make room. Default 30 days. */
  idleMs?: number;
}
