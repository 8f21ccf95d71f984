// Exact-text matching for `replace { old, new }`. The file and `old` are compared with line
// endings normalised to "\n" (an agent cannot see CR), everything else byte for byte. The match
// must be unique; the errors give the count and every matching line so the caller can pick a range.

import { isAscii } from "node:buffer";
import { countEols, type Doc, lineAt, lineByteStarts, splitContent, textOf } from "../doc/lines.js";
import type { Region } from "../doc/splice.js";
import { EditError } from "../errors.js";
import { formatNearMisses, nearMisses } from "./nearmiss.js";

export interface TextMatch {
  region: Region;
  /** The matched text with the file's own line endings. */
  removed: string;
  /** 1-based inclusive lines the match covers. */
  startLine: number;
  endLine: number;
}

const MAX_REPORTED = 50;

export function normalizeNewlines(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}

/**
 * Start offset of each line in the "\n"-joined text, plus a sentinel at the end. A typed array:
 * a plain one of 100,000 numbers cost ten times as much to fill.
 */
function lineStarts(doc: Doc): Float64Array {
  const starts = new Float64Array(doc.lines.length + 1);
  let off = 0;
  for (let i = 0; i < doc.lines.length; i++) {
    starts[i] = off;
    off += doc.lines[i]!.length + (doc.eols[i] === "" ? 0 : 1);
  }
  starts[doc.lines.length] = off;
  return starts;
}

/** The file's text with every line ending as "\n" (only the last line may have none). */
export function normalizedText(doc: Doc): string {
  if (doc.flat !== undefined) return doc.flat;
  // Without CRLF endings the file's own text is exactly this, and decoding it is a byte copy.
  if (doc.source && countEols(doc).crlf === 0) {
    doc.flat = textOf(doc.source).text;
    return doc.flat;
  }
  const n = doc.lines.length;
  // One join: concatenating each line with its ending first costs a string per line. Kept on the
  // document, which a snapshot may serve to the next edit of the same bytes.
  doc.flat = n === 0 ? "" : doc.lines.join("\n") + (doc.eols[n - 1] === "" ? "" : "\n");
  return doc.flat;
}

/** What the match needs of the file's "\n"-joined text: a string, or the bytes that equal it. */
interface Haystack {
  readonly length: number;
  indexOf(needle: string, from?: number): number;
  slice(start: number, end: number): string;
}

/**
 * The bytes of a kept document stand for its text when they are ASCII without CR: then byte
 * offsets are character offsets and a byte search (memmem) finds what the string search would,
 * without building a 6 MB string per edit. A non-ASCII needle encodes to bytes of 0x80 and up,
 * which such a file cannot hold, so it simply finds nothing there.
 */
function haystack(doc: Doc): { hay: Haystack; starts: Float64Array } {
  const src = doc.source;
  if (doc.flat !== undefined || doc.bom || !src || countEols(doc).crlf > 0 || !isAscii(src))
    return { hay: normalizedText(doc), starts: lineStarts(doc) };
  const body = Buffer.from(src.buffer, src.byteOffset, src.byteLength);
  return {
    hay: {
      length: body.length,
      indexOf: (needle, from = 0) => body.indexOf(needle, from, "utf8"),
      slice: (start, end) => body.toString("latin1", start, end),
    },
    // The same offsets as lineStarts here, and kept with the document for encoding the edit.
    starts: lineByteStarts(doc, src),
  };
}

export function findUnique(doc: Doc, oldText: string, newText: string, path: string, edit = 0): TextMatch {
  if (oldText.length === 0) {
    throw new EditError(
      "invalid_argument",
      "`old` is empty; give the exact text to replace, or a line range",
    );
  }
  const needle = normalizeNewlines(oldText);
  const { hay, starts } = haystack(doc);
  const hits: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    hits.push(i);
    if (hits.length > MAX_REPORTED) break;
  }
  if (hits.length === 0) {
    const near = nearMisses(doc, normalizedText(doc), starts, needle);
    throw new EditError(
      "no_match",
      `\`old\` text was not found in ${path} (${doc.lines.length} lines); ` +
        (near.length > 0
          ? `copy the file's text exactly, or replace by line range${formatNearMisses(near)}`
          : "read the file again and copy the text exactly, or replace by line range"),
      { path, total_lines: doc.lines.length },
    );
  }
  if (hits.length > 1) {
    const lines = hits.slice(0, MAX_REPORTED).map((h) => lineAt(starts, h) + 1);
    const count = hits.length > MAX_REPORTED ? `more than ${MAX_REPORTED}` : String(hits.length);
    throw new EditError(
      "ambiguous_match",
      `\`old\` text matches ${count} times in ${path} (at lines ${lines.join(", ")}); ` +
        `add surrounding lines to make it unique, or replace by line range${linesAbove(doc, lines)}`,
      { path, match_lines: lines, total_lines: doc.lines.length },
    );
  }
  const s = hits[0]!;
  const e = s + needle.length;
  const first = lineAt(starts, s);
  const lastCovered = lineAt(starts, e - 1);
  // The region runs to the end of the line holding the first unmatched character, so the text
  // after the match on that line survives. A match that ends with "\n" ends at a line boundary:
  // it replaces whole lines and the next line is left alone (its own ending included).
  const after = e >= hay.length ? doc.lines.length : lineAt(starts, e);
  const regionEnd = e >= hay.length || starts[after] === e ? after : after + 1;
  const regionText = hay.slice(starts[first]!, starts[regionEnd]!);
  const replaced =
    regionText.slice(0, s - starts[first]!) +
    normalizeNewlines(newText) +
    regionText.slice(e - starts[first]!);
  const region: Region = { start: first, end: regionEnd, lines: splitContent(replaced).lines, edit };
  return {
    region,
    removed: rawSlice(doc, starts, s, e),
    startLine: first + 1,
    endLine: lastCovered + 1,
  };
}

/** Map a normalised [s, e) back to the file's own text (CRLF where the file has CRLF). */
function rawSlice(doc: Doc, starts: Float64Array, s: number, e: number): string {
  const first = lineAt(starts, s);
  const last = lineAt(starts, e - 1);
  let out = "";
  for (let i = first; i <= last; i++) {
    const full = doc.lines[i]! + (doc.eols[i] === "" ? "" : "\n");
    const from = i === first ? s - starts[i]! : 0;
    const to = i === last ? e - starts[i]! : full.length;
    let piece = full.slice(from, to);
    if (doc.eols[i] === "\r\n" && piece.endsWith("\n") && to === full.length)
      piece = `${piece.slice(0, -1)}\r\n`;
    out += piece;
  }
  return out;
}

/** The nearest non-blank line above each of the first few matches: what tells them apart. */
function linesAbove(doc: Doc, matches: number[]): string {
  const rows: string[] = [];
  for (const line of matches.slice(0, 5)) {
    let k = line - 1;
    while (k >= 1 && k > line - 6 && doc.lines[k - 1]!.trim() === "") k--;
    const above = k >= 1 && k > line - 6 ? doc.lines[k - 1]!.trim() : "";
    if (above === "") continue;
    rows.push(
      `- line ${line}, under line ${k}: ${JSON.stringify(above.length > 60 ? `${above.slice(0, 60)}…` : above)}`,
    );
  }
  return rows.length > 0 ? `\n${rows.join("\n")}` : "";
}
