// Public and shared types of the engine. Everything exported from index.ts is public API.

import type { ContentKind } from "./kinds/list.js";

export type { ContentKind };

/** Why an input came back unchanged. */
export type PassReason = "below_floor" | "not_smaller" | "document" | "parse_error" | "internal_error";

/** Options of `compress`. */
export interface CompressOptions {
  /** A ContentKind, or the tool/command that produced the output ("tsc", "git diff", "Read"...). */
  hint?: string;
  /** What the agent looks for: matching units are kept. */
  query?: string;
  /** Recovery handle computed by the caller; markers cite it. The engine never invents one. */
  handle?: string;
  /** Inputs below this many tokens pass through (default 300). */
  floorTokens?: number;
  /** Most tokens `output` may cost, markers included (`src/budget.ts`). */
  budget?: number;
}

/** Result of `compress`. */
export interface CompressResult {
  /** The compressed text; === input when passed through. */
  output: string;
  kind: ContentKind;
  /** 1 - tokensOut/tokensIn rounded to 4 decimals; 0 when passed through. */
  ratio: number;
  tokensIn: number;
  tokensOut: number;
  /** True when the output re-encodes everything and nothing was elided. */
  lossless: boolean;
  /** Set iff passed through. */
  reason?: PassReason;
  /** True when a token count is an estimate (inputs above EXACT_TOKEN_LIMIT characters). */
  tokensEstimated?: boolean;
  /** Detected source language for kind "code". */
  language?: string;
}

/** Result of `detect`. */
export interface Detection {
  kind: ContentKind;
  language?: string;
}

/** Result of `narrow`. */
export interface NarrowResult {
  /** Whole units in original order with gap markers, or the full original. */
  output: string;
  /** True when the full original is returned (and `note` says why). */
  full: boolean;
  unitsTotal: number;
  unitsShown: number;
  note?: string;
}

/** Options of `narrow`. */
export interface NarrowOptions {
  hint?: string;
  /** Most units to show (default 20). */
  limit?: number;
}

/** Result of the TOON functions. */
export type ToonResult =
  | { ok: true; output: string; bytesIn: number; bytesOut: number; tokensIn: number; tokensOut: number }
  | { ok: false; code: "cave_toon_invalid" | "cave_json_invalid"; message: string };

/** A compressor's proposal; the orchestrator decides whether it is smaller by a clear margin. */
export interface Candidate {
  output: string;
  lossless: boolean;
  /** The output's token count, when the compressor already measured it. */
  tokens?: TokenCountLike;
}

/** A token count as measureTokens returns it. */
interface TokenCountLike {
  tokens: number;
  estimated: boolean;
}

/** What every per-kind compressor receives. */
export interface KindContext {
  hint?: string;
  query?: string;
  handle?: string;
}
