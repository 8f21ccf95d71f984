// Options, inputs and results of the chip store, and validation of the numeric options.
// Contract: positiveInt returns the default for undefined and throws chip_invalid_option otherwise
// unless the value is a safe integer >= 1 (>= 0 for failureThresholdBytes).

import { ChipStoreError } from "./errors.js";
import type { RandomBytes } from "./ids.js";
import type { ChipKind, ChipMeta, ChipOrigin } from "./record.js";

export interface ChipStoreOptions {
  /** Directory for chip files; required unless `persist` is false. See defaultChipDir(). */
  dir?: string;
  /** Most chips kept; the oldest is evicted past it. Default 30. */
  capacity?: number;
  /** Chips older than this are neither listed nor returned, and their files are removed. Default none. */
  ttlMs?: number;
  /** A failure chip is saved only when its args JSON is longer than this many bytes. Default 50. */
  failureThresholdBytes?: number;
  /** Largest payload accepted. Default 64 MiB. */
  maxChipBytes?: number;
  /** Mirror chips to `dir`. Default true. */
  persist?: boolean;
  /** Payloads larger than this are dropped from memory after a save and re-read from disk on get. Default 1 MiB. */
  memoryPayloadBytes?: number;
  /** Milliseconds since the epoch. Default Date.now. */
  clock?: () => number;
  /** Cryptographic random bytes. Default node:crypto randomBytes. */
  random?: RandomBytes;
}

export interface SaveResult {
  /** The saved chip's metadata, or null when a failure's args were at or under the threshold. */
  chip: ChipMeta | null;
  /** Evictions and disk problems, as sentences for a human or a model. */
  warnings: string[];
  /** Ids evicted by this save. */
  evicted: string[];
}

export interface LoadReport {
  loaded: number;
  skipped: { file: string; reason: string }[];
  expired: string[];
  evicted: string[];
  staleTempsRemoved: number;
  warnings: string[];
}

export interface ListFilter {
  tool?: string;
  kind?: ChipKind;
  /** Matches an origin path exactly or as a path suffix (`src/a.ts` matches `/repo/src/a.ts`). */
  path?: string;
  /** Case-insensitive text searched in the tool, error, origin path and payload. */
  query?: string;
}

export interface SaveFailureInput {
  tool: string;
  args: unknown;
  errMsg?: string;
}

export interface SaveContentInput {
  tool: string;
  content: string | Uint8Array;
  origin?: ChipOrigin;
}

export function positiveInt(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < (name === "failureThresholdBytes" ? 0 : 1)) {
    throw new ChipStoreError(
      "chip_invalid_option",
      `${name} must be a positive whole number, got ${String(v)}`,
    );
  }
  return v;
}
