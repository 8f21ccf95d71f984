// The code compressor: an outline that keeps imports, types and every signature and elides
// function and data bodies, each elision naming its line span (so `lines:a-b` retrieves exactly
// it). C-family code goes through the bracket scanner, Python through indentation. When brackets
// do not balance, or the outline would not re-balance, the input passes through (parse_error);
// braces left open at the end are a file cut short (`head -n`), whose last bodies elide to its end.
import { hasGutter, stripGutters } from "../../gutter.js";
import { REGION_GAP, renderKept } from "../../lines.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { tick } from "../../work.js";
import { scanBraces } from "./scan.js";

const KEEP_WHOLE =
  /^\s*(export\s+)?(default\s+)?(declare\s+)?((public|private|protected|internal|abstract|static|final|sealed|data|pub(\([\w:]+\))?)\s+)*(interface|type|enum|struct|union)\b/;
const DESCEND =
  /^\s*(export\s+)?(default\s+)?(declare\s+)?((public|private|protected|internal|abstract|static|final|sealed|partial|unsafe|pub(\([\w:]+\))?)\s+)*(class|namespace|module|impl|trait|object|mod|extension|protocol|extern\s+"C")\b|^\s*impl\b/;
/** Bodies shorter than this many inner lines are kept (a marker would cost as much). */
const MIN_BODY = 2;

function header(lines: readonly string[], open: number): string {
  const line = lines[open]!;
  if (line.trim() !== "{") return line;
  for (let i = open - 1; i >= 0; i--) if (lines[i]!.trim() !== "") return lines[i]!;
  return line;
}

function braceOutline(
  code: readonly string[],
  language: string | undefined,
  cut: boolean,
): Uint8Array | undefined {
  const pairs = scanBraces(code, language, cut);
  if (!pairs) return undefined;
  const keep = new Uint8Array(code.length).fill(1);
  pairs.sort((a, b) => a.open - b.open || b.close - a.close);
  // Pairs come in order of their open line, so every body already taken opened at or before
  // this pair: the pair sits inside one iff the furthest close seen reaches past its close.
  // (Searching the list of taken bodies per pair was quadratic: 40,000 one-line functions took 4 s.)
  let coveredTo = -1;
  tick(pairs.length);
  for (const pair of pairs) {
    if (pair.close <= coveredTo) continue;
    const head = header(code, pair.open);
    if (DESCEND.test(head)) continue;
    coveredTo = Math.max(coveredTo, pair.close);
    if (KEEP_WHOLE.test(head)) continue;
    if (pair.close - pair.open - 1 < MIN_BODY) continue;
    for (let i = pair.open + 1; i < pair.close; i++) keep[i] = 0;
  }
  return keep;
}

const LINE_COMMENT = /^\s*\/\//;

/**
 * Drops the middle of block comments longer than four lines (opener, first line and closer
 * stay), and all but the first line of a run of more than four line comments (Rust's `///` docs).
 */
function foldComments(code: readonly string[], keep: Uint8Array): void {
  for (let i = 0; i < code.length; i++) {
    if (keep[i] && LINE_COMMENT.test(code[i]!)) {
      let end = i;
      while (end + 1 < code.length && keep[end + 1] && LINE_COMMENT.test(code[end + 1]!)) end++;
      if (end - i + 1 > 4) for (let j = i + 1; j <= end; j++) keep[j] = 0;
      i = end;
      continue;
    }
    if (!keep[i] || !/^\s*\/\*/.test(code[i]!) || code[i]!.includes("*/")) continue;
    let end = i + 1;
    while (end < code.length && !code[end]!.includes("*/")) end++;
    if (end >= code.length) return;
    if (end - i - 1 > 3) for (let j = i + 2; j < end; j++) keep[j] = 0;
    i = end;
  }
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function pythonOutline(code: readonly string[]): Uint8Array {
  const keep = new Uint8Array(code.length).fill(1);
  for (let i = 0; i < code.length; i++) {
    const line = code[i]!;
    if (!/^\s*(async\s+)?def\s/.test(line) || !keep[i]) continue;
    let sigEnd = i;
    while (sigEnd < code.length && !/:\s*(#.*)?$/.test(code[sigEnd]!)) sigEnd++;
    const base = indentOf(line);
    let last = sigEnd;
    for (let j = sigEnd + 1; j < code.length; j++) {
      const next = code[j]!;
      if (next.trim() === "") continue;
      if (indentOf(next) <= base) break;
      last = j;
    }
    if (last - sigEnd >= MIN_BODY) for (let j = sigEnd + 1; j <= last; j++) keep[j] = 0;
    i = last;
  }
  return keep;
}

/** Compresses source code to an outline, or says why it cannot. */
export function compressCode(
  text: string,
  ctx: KindContext,
  language: string | undefined,
): Candidate | PassReason {
  const lines = text.split("\n");
  const code = stripGutters(lines);
  // A file cut short (`head -n`, a Read window) leaves braces open at its end; its outline may
  // elide to the end. Whole files must balance.
  const cut = language !== "python" && scanBraces(code, language) === undefined;
  const keep = language === "python" ? pythonOutline(code) : braceOutline(code, language, cut);
  if (!keep) return "parse_error";
  if (language !== "python") foldComments(code, keep);
  if (!keep.includes(0)) return "not_smaller";
  if (language !== "python") {
    // The outline must re-balance on its own: elided spans sit strictly inside kept braces.
    const kept = code.filter((_, i) => keep[i]);
    if (!scanBraces(kept, language, cut)) return "parse_error";
  }
  const output = renderKept(lines, keep, {
    indent: (from) => /^\s*/.exec(code[from]!)![0],
    // Behind a line-number gutter every kept line says where it sits, so the gaps are plain to
    // see and one region marker names them all; bare code keeps a marker per elided body, whose
    // span is where that body is.
    ...(hasGutter(lines) ? { regionGap: REGION_GAP } : {}),
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output, lossless: false };
}
