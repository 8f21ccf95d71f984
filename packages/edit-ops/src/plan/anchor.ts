// Range-checked edits. A `range_hash` is the `range_hash` that `read` returned for exactly the
// lines an edit touches: sha256 of those lines' text with their own line endings (no BOM), the
// same bytes `read` hashes. Promises:
// - an edit whose lines still hold that text goes ahead, even when the rest of the file changed;
// - when lines were inserted or removed above, the edit moves to the one place within
//   SEARCH_LINES lines of the named position whose lines hash to it;
// - when no place (or more than one) matches it is refused with `conflict`, naming the lines and
//   showing what they hold now. It never guesses between two places.
// When the caller's `expected_hash` still matches the file, the lines are where they were read and
// only the named position is checked. Otherwise (the file moved, or nobody said) the named position
// is accepted only if no other place near it holds the same text: a repeated line such as "}"
// could be another copy pushed into place by an insert above.

import { type Doc, joinLines, sha256 } from "../doc/lines.js";
import { EditError } from "../errors.js";

/** How far (in lines, each side) a range is looked for when its position no longer holds it. */
export const SEARCH_LINES = 5000;
/** Bytes hashed while looking, at most; past it the search stops short of SEARCH_LINES. */
export const SEARCH_BYTES = 16 * 1024 * 1024;

export interface Anchor {
  /** Lower-case hex, a prefix of 8+ digits of the range's sha256. */
  hash: string;
  /** The caller's expected_hash: false = still the file's hash, true = the file changed, null = not given. */
  moved: boolean | null;
}

/** What `read` returns as `range_hash` for 1-based inclusive lines start..end. */
export function rangeHash(doc: Doc, start: number, end: number): string {
  return sha256(joinLines(doc.lines, doc.eols, start - 1, end));
}

const SHOWN = 2000;

function shown(doc: Doc, start: number, end: number): string {
  const text = doc.lines.slice(start - 1, end).join("\n");
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}\n... (${text.length - SHOWN} more characters)` : text;
}

function span(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}-${end}`;
}

/** "line 7 of a.ts changed since it was read" / "lines 7-9 … since they were read". */
function changed(start: number, end: number, path: string): string {
  return `${span(start, end)} of ${path} changed since ${start === end ? "it was" : "they were"} read`;
}

function nowHold(doc: Doc, start: number, end: number): string {
  return `${start === end ? "It now holds" : "They now hold"}:\n${shown(doc, start, end)}`;
}

/** Work done by the last `locate` call: windows hashed and their bytes (for tests of the bound). */
export const locateWork = { windows: 0, bytes: 0 };

/**
 * The 1-based lines start..end, moved to where the anchored text is now. Throws `conflict` when
 * the text is nowhere near, or in more than one place while the position is in doubt.
 */
export function locate(
  doc: Doc,
  start: number,
  end: number,
  anchor: Anchor,
  path: string,
): { start: number; end: number } {
  const n = doc.lines.length;
  const len = end - start + 1;
  locateWork.windows = 0;
  locateWork.bytes = 0;
  const hashes = (s: number) => {
    const text = joinLines(doc.lines, doc.eols, s - 1, s - 1 + len);
    locateWork.windows++;
    locateWork.bytes += text.length;
    return sha256(text).startsWith(anchor.hash);
  };
  const inFile = start >= 1 && end <= n;
  const here = inFile && hashes(start);
  // Once the named lines are known to hold the text, a competitor must hold the same lines:
  // comparing strings (which mostly fails on the first line) is far cheaper than hashing.
  const same = (s: number) => {
    locateWork.windows++;
    for (let i = 0; i < len; i++) {
      if (
        doc.lines[s - 1 + i] !== doc.lines[start - 1 + i] ||
        doc.eols[s - 1 + i] !== doc.eols[start - 1 + i]
      )
        return false;
    }
    return true;
  };
  const matches = here ? same : hashes;
  if (here && anchor.moved === false) return { start, end };
  if (!here && anchor.moved === false) {
    throw new EditError(
      "conflict",
      `range_hash ${anchor.hash.slice(0, 16)} is not the hash of ${span(start, end)} of ${path}, and the file ` +
        "is unchanged since that read (expected_hash matches): give the range_hash be-read returned for exactly these lines",
      { path, total_lines: n },
    );
  }
  // Look outward from the named position; every other match within reach is a competitor.
  const found: number[] = here ? [start] : [];
  for (let d = 1; d <= SEARCH_LINES && found.length < 2; d++) {
    if (locateWork.bytes > SEARCH_BYTES) break;
    const up = start - d;
    const down = start + d;
    if (up < 1 && down + len - 1 > n) break;
    if (down + len - 1 <= n && matches(down)) found.push(down);
    if (up >= 1 && up + len - 1 <= n && found.length < 2 && matches(up)) found.push(up);
  }
  if (found.length === 1) {
    const s = found[0]!;
    return { start: s, end: s + len - 1 };
  }
  if (found.length > 1) {
    const where = found.map((s) => span(s, s + len - 1)).join(" and ");
    throw new EditError(
      "conflict",
      `the text range_hash names is at ${where} of ${path}, so it is not clear which to edit` +
        (here ? " (the file may have moved since it was read)" : "") +
        "; nothing was changed. " +
        (anchor.moved === null
          ? "Give the expected_hash of the same read as well, or anchor a longer range"
          : "Read the file again, or anchor a longer range"),
      { path, total_lines: n },
    );
  }
  const now = inFile ? ` ${nowHold(doc, start, end)}` : ` ${path} now has ${n} line${n === 1 ? "" : "s"}.`;
  throw new EditError(
    "conflict",
    `${changed(start, end, path)} (range_hash ${anchor.hash.slice(0, 16)} matches no ${len}-line ` +
      `range within ${SEARCH_LINES} lines); nothing was changed. Read again.${now}`,
    { path, total_lines: n, ...(inFile ? { actual: doc.lines.slice(start - 1, end).join("\n") } : {}) },
  );
}

/** The range check of an edit that found its place by itself (text match, ALL): no moving. */
export function checkAnchored(doc: Doc, start: number, end: number, anchor: Anchor, path: string): void {
  if (rangeHash(doc, start, end).startsWith(anchor.hash)) return;
  throw new EditError(
    "conflict",
    `${changed(start, end, path)} (range_hash ${anchor.hash.slice(0, 16)} does not match); nothing was ` +
      `changed. ${nowHold(doc, start, end)}`,
    { path, total_lines: doc.lines.length, actual: doc.lines.slice(start - 1, end).join("\n") },
  );
}
