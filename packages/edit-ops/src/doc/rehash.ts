// The new hash of an edited file without re-hashing the bytes before the edit. SHA-256 reads a
// file front to back, so its state after the first k MiB depends only on those bytes. When a
// file is hashed here, the state at each MiB is kept (per file, for the last few files); when the
// same bytes (same hash) are edited next, hashing resumes from the last kept state before the
// first changed byte. The digest is the ordinary sha256 of the bytes, always: a kept state is
// used only when the loaded file has exactly the hash the states were made for, and only up to
// the first byte the edit changed.

import { createHash, type Hash } from "node:crypto";

const STEP = 1 << 20;
const FILES = 8;

interface Kept {
  /** The digest of the bytes the states were taken from. */
  hash: string;
  /** states[i]: the hash state after (i + 1) * STEP bytes. Never updated or digested in place. */
  states: Hash[];
}

const kept = new Map<string, Kept>();

/** Work done by the last call: bytes hashed (for tests; the point is hashing fewer). */
export const rehashWork = { bytes: 0 };

/**
 * sha256 of `next`, the new bytes of the file `key` whose previous bytes hashed to `oldHash`;
 * `same` bytes at the start of `next` are known to equal the previous bytes. `keep`: remember
 * this hash's states for the next edit (false for a preview, whose bytes are never written).
 */
export function rehash(
  key: string,
  oldHash: string | null,
  next: Uint8Array,
  same: number,
  keep: boolean,
): string {
  rehashWork.bytes = 0;
  if (next.length < 2 * STEP) {
    rehashWork.bytes = next.length;
    return createHash("sha256").update(next).digest("hex");
  }
  const prior = oldHash === null ? undefined : kept.get(key);
  const states: Hash[] = [];
  let h = createHash("sha256");
  let from = 0;
  if (prior && prior.hash === oldHash) {
    const reuse = Math.min(prior.states.length, Math.floor(Math.min(same, next.length) / STEP));
    for (let i = 0; i < reuse; i++) states.push(prior.states[i]!);
    if (reuse > 0) {
      h = prior.states[reuse - 1]!.copy();
      from = reuse * STEP;
    }
  }
  for (let off = from; off < next.length; ) {
    const to = Math.min(next.length, off + STEP);
    h.update(next.subarray(off, to));
    rehashWork.bytes += to - off;
    if (to - off === STEP && to < next.length) states.push(h.copy());
    off = to;
  }
  const digest = h.digest("hex");
  if (!keep) return digest;
  kept.delete(key);
  kept.set(key, { hash: digest, states });
  if (kept.size > FILES) kept.delete(kept.keys().next().value!);
  return digest;
}
