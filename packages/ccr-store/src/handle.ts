// The handle grammar, owned here. A handle is "ccr_" + the first 32 lowercase hex digits of the
// SHA-256 of the original's bytes (strings are hashed as UTF-8), so the same bytes get the same
// handle in every process. parseHandle accepts exactly the spellings the server may ever show the
// model — ccr_<hex>, ccr:<hex>, ccr://<hex>, <<ccr:<hex>>> — optionally wrapped in whitespace and
// matched pairs of quotes or backticks, returns the canonical "ccr_<hex>", and never throws.
import { createHash } from "node:crypto";
import { CcrStoreError } from "./errors.js";
import type { OriginalInput, PreparedOriginal } from "./types.js";

/** Number of hex digits of the SHA-256 kept in a handle (128 bits). */
export const HANDLE_HEX_LENGTH = 32;

const PREFIX = "ccr_";
const HEX32 = /^[0-9a-f]{32}$/;
/** Longer text cannot be a handle; rejecting it early keeps parsing cheap on hostile input. */
const MAX_SPELLING_LENGTH = 256;
const WRAPPERS = new Set(['"', "'", "`"]);
const SPELLINGS = ["ccr_", "ccr://", "ccr:"] as const;

const encoder = new TextEncoder();

/**
 * Bytes of an original exactly as the store keeps them. Strings become UTF-8; a string with a
 * lone surrogate has no exact UTF-8 form, so it is refused rather than silently altered.
 */
export function originalBytes(original: string | Uint8Array): Uint8Array {
  if (typeof original === "string") {
    refuseLoneSurrogate(original);
    return encoder.encode(original);
  }
  if (original instanceof Uint8Array) return original;
  throw new CcrStoreError(
    "invalid_original",
    `an original must be a string or a Uint8Array, got ${describe(original)}`,
  );
}

function refuseLoneSurrogate(text: string): void {
  if (hasLoneSurrogate(text)) {
    throw new CcrStoreError(
      "invalid_original",
      "the string has a lone surrogate and cannot be stored byte-exactly; pass the raw bytes as a Uint8Array",
    );
  }
}

/** Full SHA-256 of the bytes, lowercase hex (64 digits). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The handle of an original: "ccr_" + the first 32 hex digits of its SHA-256. */
export function computeHandle(original: string | Uint8Array): string {
  return handleFromSha256(sha256Hex(originalBytes(original)));
}

// Values made here, so that a hand-built object with a wrong hash can never skip the hashing.
const madeHere = new WeakSet<object>();

/** Encode and hash an original once; throws invalid_original as originalBytes does. */
export function prepareOriginal(original: string | Uint8Array): PreparedOriginal {
  if (typeof original === "string") {
    refuseLoneSurrogate(original);
    // The caller holds the prepared value across the engine run: encoding now would pin a second
    // copy of the input all that time. The hash reads the string itself (a well-formed string's
    // UTF-8 is exactly what the encoder gives), and the bytes are made when a store first reads
    // them, once, then kept for every store that shares this value.
    const sha256 = createHash("sha256").update(original, "utf8").digest("hex");
    let bytes: Uint8Array | undefined;
    return trusted({
      get bytes() {
        bytes ??= encoder.encode(original);
        return bytes;
      },
      sha256,
      handle: handleFromSha256(sha256),
    });
  }
  // A caller may reuse its buffer while it holds the prepared value: a copy keeps the stored
  // bytes the ones that were hashed.
  return prepared(new Uint8Array(originalBytes(original)));
}

/** The prepared form of a put's argument: a value from prepareOriginal as is, anything else prepared now. */
export function asPrepared(original: OriginalInput): PreparedOriginal {
  if (typeof original === "object" && original !== null && !(original instanceof Uint8Array)) {
    if (madeHere.has(original)) return original as PreparedOriginal;
    if ("sha256" in original || "handle" in original) {
      // Its hash cannot be trusted without hashing again, which is what preparing saves.
      throw new CcrStoreError(
        "invalid_original",
        "this prepared original was not made by prepareOriginal (in this process); pass the string or bytes, or prepareOriginal's own value",
      );
    }
  }
  // Used at once by the put that asked, as before prepared originals existed: no copy.
  return prepared(originalBytes(original as string | Uint8Array));
}

function prepared(bytes: Uint8Array): PreparedOriginal {
  const sha256 = sha256Hex(bytes);
  return trusted({ bytes, sha256, handle: handleFromSha256(sha256) });
}

function trusted(value: PreparedOriginal): PreparedOriginal {
  const frozen = Object.freeze(value);
  madeHere.add(frozen);
  return frozen;
}

/** The handle for a full SHA-256 hex digest. */
export function handleFromSha256(hex: string): string {
  return PREFIX + hex.slice(0, HANDLE_HEX_LENGTH);
}

/**
 * Parse any accepted spelling of a handle and return it canonical ("ccr_<hex>"), or null.
 * Accepts unknown input so that it can be fed whatever a model or a config produced.
 */
export function parseHandle(text: unknown): string | null {
  if (typeof text !== "string" || text.length > MAX_SPELLING_LENGTH) return null;
  let s = text.trim();
  // Peel matched wrapper pairs, trimming between layers: ` "ccr_…" `, ```ccr_…```, '`ccr:…`'.
  while (s.length >= 2 && WRAPPERS.has(s[0]!) && s[s.length - 1] === s[0]) {
    s = s.slice(1, -1).trim();
  }
  if (s.startsWith("<<") && s.endsWith(">>")) {
    const inner = s.slice(2, -2);
    return inner.startsWith("ccr:") ? hexToHandle(inner.slice(4)) : null;
  }
  for (const prefix of SPELLINGS) {
    if (s.startsWith(prefix)) return hexToHandle(s.slice(prefix.length));
  }
  return null;
}

/** True when `text` is a handle in canonical form (no wrapping, "ccr_" spelling). */
export function isCanonicalHandle(text: unknown): text is string {
  return typeof text === "string" && text.startsWith(PREFIX) && HEX32.test(text.slice(PREFIX.length));
}

/** Canonical handle for `text`, or a typed invalid_handle error naming the accepted spellings. */
export function requireHandle(text: unknown): string {
  const handle = parseHandle(text);
  if (handle === null) {
    throw new CcrStoreError(
      "invalid_handle",
      `${describe(text)} is not a CCR handle; expected ccr_ followed by 32 lowercase hex digits (also ccr:<hex>, ccr://<hex>, <<ccr:<hex>>>)`,
    );
  }
  return handle;
}

/** In a /u regex a surrogate pair is one code point, so \p{Cs} matches only lone halves. */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when the string has no exact UTF-8 form (String.prototype.isWellFormed is ES2024). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

function hexToHandle(hex: string): string | null {
  return HEX32.test(hex) ? PREFIX + hex : null;
}

function describe(value: unknown): string {
  if (typeof value === "string") {
    const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
    return JSON.stringify(shown);
  }
  if (value === null) return "null";
  return typeof value;
}
