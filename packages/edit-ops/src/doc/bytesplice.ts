// Byte splices: an edit's new bytes made from the old ones, and what the journal records of it.
// `encodeSpliced` copies the unchanged lines of a spliced document as byte runs and names the
// splices between them; `singleSplice` finds the one splice between two byte strings when no
// plan made them (the common prefix and suffix are left out, so an entry holds only the removed
// bytes and where they went).

import { type Doc, lineByteStarts } from "./lines.js";

/** Old bytes [oldStart, oldEnd) became `inserted` bytes at offset `at` of the new file. */
export interface ByteSplice {
  oldStart: number;
  oldEnd: number;
  at: number;
  inserted: number;
}

/**
 * Encode a document made by `splice` from `oldDoc`/`oldBytes`: lines copied unchanged
 * (`from[j]` is their old index, -1 for new or changed lines) are copied as byte runs, so a
 * one-line edit of a large file costs a few memcpy calls instead of re-encoding every line.
 * Also returns the byte splices between the copied runs, which is what the journal keeps.
 */
export function encodeSpliced(
  oldDoc: Doc,
  oldBytes: Uint8Array,
  doc: Doc,
  from: Int32Array,
): { bytes: Buffer; splices: ByteSplice[] } {
  const starts = lineByteStarts(oldDoc, oldBytes);
  const chunks: Uint8Array[] = [];
  const splices: ByteSplice[] = [];
  const bom = doc.bom ? 3 : 0;
  if (doc.bom) chunks.push(Buffer.from([0xef, 0xbb, 0xbf]));
  let out = bom;
  // End of the last copied run, in old and new bytes; what lies between two runs is a splice.
  let oldMark = oldDoc.bom === doc.bom ? bom : 0;
  let newMark = oldDoc.bom === doc.bom ? bom : 0;
  let fresh = "";
  let runStart = -1;
  let runEnd = -1;
  const flushFresh = () => {
    if (fresh === "") return;
    const b = Buffer.from(fresh, "utf8");
    chunks.push(b);
    out += b.length;
    fresh = "";
  };
  const flushRun = () => {
    if (runStart === -1) return;
    const a = starts[runStart]!;
    const b = starts[runEnd]!;
    if (a !== oldMark || out !== newMark)
      splices.push({ oldStart: oldMark, oldEnd: a, at: newMark, inserted: out - newMark });
    chunks.push(oldBytes.subarray(a, b));
    out += b - a;
    oldMark = b;
    newMark = out;
    runStart = -1;
  };
  for (let j = 0; j < doc.lines.length; j++) {
    const i = from[j]!;
    if (i >= 0) {
      flushFresh();
      if (runStart !== -1 && i === runEnd) runEnd = i + 1;
      else {
        flushRun();
        runStart = i;
        runEnd = i + 1;
      }
    } else {
      flushRun();
      fresh += doc.lines[j]! + doc.eols[j]!;
    }
  }
  flushRun();
  flushFresh();
  if (oldMark !== oldBytes.length || out !== newMark) {
    splices.push({ oldStart: oldMark, oldEnd: oldBytes.length, at: newMark, inserted: out - newMark });
  }
  return { bytes: Buffer.concat(chunks), splices };
}

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
