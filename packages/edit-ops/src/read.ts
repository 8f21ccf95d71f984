// The read operation's pure part: pick lines of a decoded file (a range, a target, or the whole
// file; the request was checked in input/requests.ts), cap them by line count and bytes, and say
// which range to ask for next.

import { type Doc, hasFinalNewline, joinLines, lineEndingStyle, sha256 } from "./doc/lines.js";
import { EditError } from "./errors.js";
import type { ReadRequest } from "./input/requests.js";
import { resolveTarget } from "./input/targets.js";
import type { ReadResult } from "./types.js";

export interface ReadCaps {
  maxLines: number;
  maxBytes: number;
}

function pickLines(doc: Doc, req: ReadRequest, path: string): { start: number; end: number } {
  const n = doc.lines.length;
  if (req.target) {
    const span = resolveTarget(doc.lines, req.target);
    return { start: Math.max(1, span.start + 1 - req.context), end: Math.min(n, span.end + 1 + req.context) };
  }
  if (req.all || req.start === undefined) return { start: 1, end: n };
  const start = req.start;
  const end = req.end ?? Math.max(n, start);
  if (start < 1 || end < 1) {
    throw new EditError(
      "invalid_range",
      `line ${Math.min(start, end)} does not exist: lines are 1-based (${path} has ${n} lines)`,
      {
        path,
        total_lines: n,
      },
    );
  }
  if (start > end)
    throw new EditError("invalid_range", `start line ${start} is after end line ${end}`, {
      path,
      total_lines: n,
    });
  if (start > n) {
    throw new EditError("out_of_range", `line ${start} is past the end (${path} has ${n} lines)`, {
      path,
      total_lines: n,
    });
  }
  // A range that runs past the end is read to the end: the result states the real end line.
  return { start, end: Math.min(end, n) };
}

export function readLines(
  doc: Doc,
  bytes: Uint8Array,
  path: string,
  req: ReadRequest,
  caps: ReadCaps,
): ReadResult {
  const { start, end } = pickLines(doc, req, path);
  const n = doc.lines.length;
  let last = start - 1;
  let used = 0;
  let clipped: number | null = null;
  const shown: string[] = [];
  const width = String(Math.max(end, 1)).length;
  for (let i = start; i <= end; i++) {
    const text = doc.lines[i - 1]!;
    const size = Buffer.byteLength(text) + 1;
    if (shown.length >= caps.maxLines || (shown.length > 0 && used + size > caps.maxBytes)) break;
    let visible = text;
    if (size > caps.maxBytes) {
      // One line longer than the whole cap: show its head and say so rather than nothing.
      visible = Buffer.from(text)
        .subarray(0, caps.maxBytes)
        .toString("utf8")
        .replace(/\uFFFD$/, "");
      clipped = i;
    }
    shown.push(`${String(i).padStart(width, " ")}\t${visible}`);
    used += size;
    last = i;
    if (clipped !== null) break;
  }
  // A clipped line contributes only its visible head, so the cap holds for `content` too.
  const content =
    clipped === null
      ? joinLines(doc.lines, doc.eols, start - 1, last)
      : joinLines(doc.lines, doc.eols, start - 1, last - 1) + shown[shown.length - 1]!.slice(width + 1);
  const truncated = last < end;
  return {
    path,
    total_lines: n,
    start_line: n === 0 ? 0 : start,
    end_line: last,
    numbered: shown.join("\n"),
    content,
    hash: sha256(bytes),
    range_hash: sha256(content),
    truncated,
    next: truncated ? { start_line: last + 1, end_line: end } : null,
    line_ending: lineEndingStyle(doc),
    bom: doc.bom,
    final_newline: hasFinalNewline(doc),
    clipped_line: clipped,
  };
}
