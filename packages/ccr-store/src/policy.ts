// Rules both backends share, so that memory and SQLite behave the same: option defaults and
// validation, metadata validation, the size ceiling of one original, and the room-making plan
// (drop idle entries oldest first only when that is enough, else refuse; never drop a live one).
import { CcrStoreError } from "./errors.js";
import { asPrepared, hasLoneSurrogate } from "./handle.js";
import type { Clock, OriginalInput, PreparedOriginal, StorePolicyOptions } from "./types.js";

export const DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024;
export const DEFAULT_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
/** SQLite's default SQLITE_MAX_LENGTH; the memory backend uses the same ceiling. */
export const MAX_ORIGINAL_BYTES = 1_000_000_000;

const MAX_KIND_LENGTH = 64;
const MAX_PRODUCER_LENGTH = 256;
const META_KEYS = new Set(["kind", "producer", "tokensIn", "tokensOut", "createdAt"]);

export interface Policy {
  clock: Clock;
  budgetBytes: number;
  idleMs: number;
}

export interface NormalizedMeta {
  kind: string | null;
  producer: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  createdAt: number | null;
}

export function resolvePolicy(opts: StorePolicyOptions = {}): Policy {
  const clock = opts.clock ?? Date.now;
  if (typeof clock !== "function") throw new CcrStoreError("invalid_config", "clock must be a function");
  return {
    clock,
    budgetBytes: positiveInt("budgetBytes", opts.budgetBytes, DEFAULT_BUDGET_BYTES),
    idleMs: positiveInt("idleMs", opts.idleMs, DEFAULT_IDLE_MS),
  };
}

export function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new CcrStoreError("invalid_config", `${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** Read the clock and insist on a usable time, so a broken clock cannot poison stored rows. */
export function now(policy: Policy): number {
  const t = policy.clock();
  if (!Number.isSafeInteger(t) || t < 0) {
    throw new CcrStoreError(
      "invalid_config",
      `clock returned ${String(t)}; it must return integer ms since epoch`,
    );
  }
  return t;
}

function normalizeMeta(meta: unknown): NormalizedMeta {
  try {
    return readMeta(meta);
  } catch (err) {
    if (err instanceof CcrStoreError) throw err;
    // A getter or proxy that throws must surface as bad input, not as a stray untyped error.
    throw new CcrStoreError(
      "invalid_meta",
      "meta could not be read (a property threw); pass a plain object",
      {
        cause: err,
      },
    );
  }
}

function readMeta(meta: unknown): NormalizedMeta {
  const out: NormalizedMeta = {
    kind: null,
    producer: null,
    tokensIn: null,
    tokensOut: null,
    createdAt: null,
  };
  if (meta === undefined) return out;
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) {
    throw new CcrStoreError("invalid_meta", "meta must be an object");
  }
  const m = meta as Record<string, unknown>;
  for (const key of Object.keys(m)) {
    if (!META_KEYS.has(key)) {
      throw new CcrStoreError(
        "invalid_meta",
        `unknown meta key "${key}"; accepted: ${[...META_KEYS].join(", ")}`,
      );
    }
  }
  out.kind = text("kind", m.kind, MAX_KIND_LENGTH);
  out.producer = text("producer", m.producer, MAX_PRODUCER_LENGTH);
  out.tokensIn = count("tokensIn", m.tokensIn);
  out.tokensOut = count("tokensOut", m.tokensOut);
  out.createdAt = count("createdAt", m.createdAt);
  return out;
}

/** Refuse an original that could never fit, before any work is done on it. */
function checkSize(size: number, policy: Policy, atLeast = ""): void {
  const limit = Math.min(policy.budgetBytes, MAX_ORIGINAL_BYTES);
  if (size > limit) {
    throw new CcrStoreError(
      "original_too_large",
      `the original is ${atLeast}${size} bytes; this store holds at most ${limit} bytes per original (budget ${policy.budgetBytes})`,
    );
  }
}

/**
 * Refuse an over-long string before encoding it: its UTF-8 form has at least one byte per UTF-16
 * unit, so a string longer than the limit can never fit and need not be copied or scanned.
 */
function checkOriginalArgument(original: unknown, policy: Policy): void {
  if (typeof original === "string") checkSize(original.length, policy, "at least ");
}

/**
 * A put's arguments, checked the same way by every backend and in the same order: an over-long
 * string, then the bytes (invalid_original), the metadata (invalid_meta), the size.
 */
export function acceptPut(
  original: OriginalInput,
  meta: unknown,
  policy: Policy,
): { prepared: PreparedOriginal; meta: NormalizedMeta } {
  checkOriginalArgument(original, policy);
  const prepared = asPrepared(original);
  const m = normalizeMeta(meta);
  checkSize(prepared.bytes.byteLength, policy);
  return { prepared, meta: m };
}

/** An idle entry that may be dropped, as a backend lists them (oldest last access first). */
export interface IdleEntry {
  handle: string;
  size: number;
}

/**
 * Choose the idle entries to drop so that `incoming` more bytes fit, oldest first. Throws
 * store_full, dropping nothing, when even all idle entries would not make enough room.
 */
export function planRoom(
  usedBytes: number,
  incoming: number,
  policy: Policy,
  idleOldestFirst: Iterable<IdleEntry>,
): string[] {
  let need = usedBytes + incoming - policy.budgetBytes;
  if (need <= 0) return [];
  const drop: string[] = [];
  for (const entry of idleOldestFirst) {
    drop.push(entry.handle);
    need -= entry.size;
    if (need <= 0) return drop;
  }
  throw new CcrStoreError(
    "store_full",
    `storing ${incoming} bytes would exceed the budget of ${policy.budgetBytes} bytes (${usedBytes} in use) and no idle entries can be dropped; raise budgetBytes or use another store`,
  );
}

function text(name: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.length > max || hasLoneSurrogate(value)) {
    throw new CcrStoreError("invalid_meta", `meta.${name} must be a string of at most ${max} characters`);
  }
  return value;
}

function count(name: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new CcrStoreError(
      "invalid_meta",
      `meta.${name} must be a non-negative integer, got ${String(value)}`,
    );
  }
  return value;
}
