// The byte splice a journal entry records for an edit: the common prefix and suffix of the file
// before and after are left out, so an entry holds only the removed bytes and where they went.

import type { ByteSplice } from "./lines.js";

/** Longest common prefix and suffix (not overlapping) of two byte strings. */
function commonEnds(a: Uint8Array, b: Uint8Array): { prefix: number; suffix: number } {
  const max = Math.min(a.length, b.length);
  const CHUNK = 4096;
  let prefix = 0;
  // Whole chunks first (native compare), then byte by byte inside the first differing chunk.
  while (
    prefix + CHUNK <= max &&
    Buffer.compare(a.subarray(prefix, prefix + CHUNK), b.subarray(prefix, prefix + CHUNK)) === 0
  ) {
    prefix += CHUNK;
  }
  while (prefix < max && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  const room = max - prefix;
  while (
    suffix + CHUNK <= room &&
    Buffer.compare(
      a.subarray(a.length - suffix - CHUNK, a.length - suffix),
      b.subarray(b.length - suffix - CHUNK, b.length - suffix),
    ) === 0
  ) {
    suffix += CHUNK;
  }
  while (suffix < room && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

/** The one splice turning `before` into `after`: what lies between their common ends. */
export function singleSplice(before: Uint8Array, after: Uint8Array): ByteSplice {
  const { prefix, suffix } = commonEnds(before, after);
  return {
    oldStart: prefix,
    oldEnd: before.length - suffix,
    at: prefix,
    inserted: after.length - prefix - suffix,
  };
}
