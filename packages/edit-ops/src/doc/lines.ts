// The line model of a file. `decode` turns bytes into lines, each with its own ending, and
// `encode` turns them back into exactly the same bytes (decode∘encode is the identity on every
// file we accept). Only "\n" and "\r\n" end a line; a lone "\r" stays inside the line's text.
// UTF-16/32 and binary content (NUL bytes, invalid UTF-8) are refused, never guessed at.

import { isAscii, isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { EditError } from "../errors.js";

export type Eol = "\n" | "\r\n" | "";

/** A decoded text file. `eols[i]` is line i's terminator; only the last one may be "". */
export interface Doc {
  bom: boolean;
  lines: string[];
  eols: Eol[];
  /**
   * The lines joined with "\n" plus the last line's "\n" if it has one, when known for free: a
   * decoded file without CR is exactly that text (the lines are slices of it anyway).
   */
  flat?: string;
  /** The bytes this document encodes to, when kept (a snapshot): `flat` can be decoded from them. */
  source?: Uint8Array;
}

export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function decode(bytes: Uint8Array, path: string): Doc {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new EditError(
      "unsupported_encoding",
      `${path} is UTF-16/UTF-32 (byte-order mark found); only UTF-8 files can be edited — convert it first`,
      { path },
    );
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new EditError(
      "binary_file",
      `${path} looks binary (NUL byte at offset ${nul}); refusing to edit it as text`,
      { path },
    );
  }
  if (!isUtf8(bytes)) {
    throw new EditError("binary_file", `${path} is not valid UTF-8; refusing to edit it as text`, { path });
  }
  const { bom, text } = textOf(bytes);
  const split = splitLines(text);
  return text.includes("\r") ? { bom, ...split } : { bom, ...split, flat: text };
}

/** The text of valid UTF-8 bytes, without the BOM (and whether there was one). */
export function textOf(bytes: Uint8Array): { bom: boolean; text: string } {
  // Most source files are pure ASCII, where latin1 decoding gives the same string as UTF-8 about
  // twenty times faster (a byte copy instead of a UTF-8 decode of the whole file).
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = isAscii(bytes) ? buf.toString("latin1") : buf.toString("utf8");
  const bom = text.charCodeAt(0) === 0xfeff;
  return { bom, text: bom ? text.slice(1) : text };
}

/** Split text into lines and their endings, keeping every byte. */
export function splitLines(text: string): { lines: string[]; eols: Eol[] } {
  if (text.length === 0) return { lines: [], eols: [] };
  const lines = text.split("\n");
  const last = lines.pop()!;
  const eols: Eol[] = new Array(lines.length).fill("\n");
  // Most files have no CR at all: skip the per-line check for them.
  if (text.includes("\r")) {
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.charCodeAt(l.length - 1) === 13) {
        lines[i] = l.slice(0, -1);
        eols[i] = "\r\n";
      }
    }
  }
  if (last !== "") {
    lines.push(last);
    eols.push("");
  }
  return { lines, eols };
}

export function emptyDoc(): Doc {
  return { bom: false, lines: [], eols: [] };
}

export function docText(doc: Doc): string {
  return (doc.bom ? "\uFEFF" : "") + joinLines(doc.lines, doc.eols, 0, doc.lines.length);
}

export function encode(doc: Doc): Buffer {
  return Buffer.from(docText(doc), "utf8");
}

/** The exact text of lines [from, to) with their own endings. */
export function joinLines(lines: string[], eols: Eol[], from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) out += lines[i]! + eols[i]!;
  return out;
}

// A document stands for one byte content (the bytes it was decoded from or encodes to), so its
// line offsets are kept with it: the exact-text match and the encoding of an edit share them.
const byteStarts = new WeakMap<Doc, Float64Array>();

/**
 * Byte offset of each line of `doc` in `bytes` (the bytes it was decoded from), plus the end.
 * ASCII files need no scan: their character offsets are byte offsets.
 */
export function lineByteStarts(doc: Doc, bytes: Uint8Array): Float64Array {
  const known = byteStarts.get(doc);
  if (known) return known;
  const starts = computeStarts(doc, bytes);
  byteStarts.set(doc, starts);
  return starts;
}

function computeStarts(doc: Doc, bytes: Uint8Array): Float64Array {
  const n = doc.lines.length;
  const bomLen = doc.bom ? 3 : 0;
  const starts = new Float64Array(n + 1);
  let pos = bomLen;
  for (let i = 0; i < n; i++) {
    starts[i] = pos;
    pos += doc.lines[i]!.length + doc.eols[i]!.length;
  }
  starts[n] = pos;
  if (pos === bytes.length) return starts;
  pos = bomLen;
  for (let i = 0; i < n; i++) {
    starts[i] = pos;
    const nl = bytes.indexOf(10, pos);
    pos = nl === -1 ? bytes.length : nl + 1;
  }
  starts[n] = bytes.length;
  return starts;
}

export function hasFinalNewline(doc: Doc): boolean {
  const n = doc.lines.length;
  return n > 0 && doc.eols[n - 1] !== "";
}

/** The ending new lines take: the more common of CRLF and LF in the file, LF on a tie or none. */
export function dominantEol(doc: Doc): "\n" | "\r\n" {
  const { crlf, lf } = countEols(doc);
  return crlf > lf ? "\r\n" : "\n";
}

export function lineEndingStyle(doc: Doc): "lf" | "crlf" | "mixed" | "none" {
  const { crlf, lf } = countEols(doc);
  if (crlf === 0 && lf === 0) return "none";
  if (crlf === 0) return "lf";
  if (lf === 0) return "crlf";
  return "mixed";
}

// An edit asks a document for its line-ending counts several times (style, dominant ending);
// a 100,000-line file is counted once. Keyed by the eols array, which is not changed once built.
const eolCounts = new WeakMap<Eol[], { crlf: number; lf: number }>();

/** Record the counts of a document built from another (see splice.ts), so they are not recounted. */
export function knownEols(eols: Eol[], counts: { crlf: number; lf: number }): void {
  eolCounts.set(eols, counts);
}

export function countEols(doc: Doc): { crlf: number; lf: number } {
  const known = eolCounts.get(doc.eols);
  if (known) return known;
  let crlf = 0;
  let lf = 0;
  for (const e of doc.eols) {
    if (e === "\r\n") crlf++;
    else if (e === "\n") lf++;
  }
  const counts = { crlf, lf };
  eolCounts.set(doc.eols, counts);
  return counts;
}

/** The 0-based line holding `offset`, given each line's start offset (and a sentinel at the end). */
export function lineAt(starts: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Content given by a caller, as lines. One trailing newline ends the last line instead of adding one. */
export interface ContentLines {
  lines: string[];
  endsWithNewline: boolean;
  hadCrlf: boolean;
}

export function splitContent(content: string): ContentLines {
  const hadCrlf = content.includes("\r\n");
  let text = hadCrlf ? content.replace(/\r\n/g, "\n") : content;
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) text = text.slice(0, -1);
  if (text === "" && !endsWithNewline) return { lines: [], endsWithNewline, hadCrlf };
  return { lines: text.split("\n"), endsWithNewline, hadCrlf };
}
