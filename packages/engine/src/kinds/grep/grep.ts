// grep/search hits (`path:line:text`, `path-line-context`). Every file keeps its first hits and
// every hit that matches the query or looks like an error; the rest of each file's hits fold into
// a marker naming the file, the hit count and the line numbers it covers. File names are never lost.

import { droppedCount, REGION_GAP, renderKept } from "../../lines.js";
import { queryTerms } from "../../shared/query.js";
import { severity } from "../../shared/severity.js";
import { isGrepHeading, isPathList } from "../../structure.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { tick } from "../../work.js";
import { keepContextHits } from "./context.js";
import { compressPaths } from "./paths.js";

// `path:line:text` is a hit; `path-line-text` (grep -C) a context line. The colon form is tried
// first: a lazy match over both separators split "migrations/2024-01-05-init.sql:12:" at
// "-01-", filing every dated file under "migrations/2024" and losing their names.
const HIT = /^([^\s:][^:\n]*?):(\d+):/;
const CONTEXT = /^([^\s:][^:\n]*?)-(\d+)-/;
const CONTEXT_LINE_NO = /^(\d+)-/;
const HEADING_HIT = /^(\d+)([:-])/;
/** Hits shown per file before the rest fold. */
const HITS_PER_FILE = 3;
/** Error-looking hits shown per file beyond the first ones. */
const ERROR_HITS_PER_FILE = 3;

interface Hit {
  file: string;
  line: number;
  /** A context line (`path-line-text`), not a match. */
  context: boolean;
}

/** Reads a hit or context line; `lastFile` is the file of the previous one (context lines sit beside their hits). */
function parseHit(line: string, lastFile: string | undefined): Hit | undefined {
  const m = HIT.exec(line);
  // A colon match whose "path" holds a space is text after a context line's separator.
  if (m && !/\s/.test(m[1]!)) return { file: m[1]!, line: Number(m[2]), context: false };
  if (lastFile !== undefined && line.startsWith(`${lastFile}-`)) {
    const n = CONTEXT_LINE_NO.exec(line.slice(lastFile.length + 1));
    if (n) return { file: lastFile, line: Number(n[1]), context: true };
  }
  if (m) return { file: m[1]!, line: Number(m[2]), context: false };
  const c = CONTEXT.exec(line);
  return c ? { file: c[1]!, line: Number(c[2]), context: true } : undefined;
}

/** Compresses grep output, or says why it cannot. */
export function compressGrep(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length);
  const hits: Array<Hit | undefined> = [];
  const perFile = new Map<string, number>();
  const errorsShown = new Map<string, number>();
  const terms = queryTerms(ctx.query);
  let lastFile: string | undefined;
  let contextLines = 0;
  // ripgrep's heading form: a path line, then `line:text` hits (`line-text` context) of that path.
  const heading = isGrepHeading(lines);
  let headingFile: string | undefined;
  const headingHit = (line: string): Hit | undefined => {
    const m = HEADING_HIT.exec(line);
    if (m && headingFile !== undefined)
      return { file: headingFile, line: Number(m[1]), context: m[2] === "-" };
    if (line.trim() !== "") headingFile = line;
    return undefined;
  };
  tick(lines.length);
  lines.forEach((line, i) => {
    const hit = heading ? headingHit(line) : parseHit(line, lastFile);
    if (!hit) {
      keep[i] = 1; // separators, "Binary file ... matches", summaries
      hits.push(undefined);
      return;
    }
    const file = hit.file;
    lastFile = file;
    hits.push(hit);
    if (hit.context) contextLines++;
    const seen = perFile.get(file) ?? 0;
    // Only matches count as the file's hits; context lines ride with them.
    if (!hit.context) perFile.set(file, seen + 1);
    const lower = line.toLowerCase();
    // Error-looking hits matter only while they stand out: a few per file beyond the first hits.
    const important = severity(line) === 2 && (errorsShown.get(file) ?? 0) < ERROR_HITS_PER_FILE;
    if (important && seen >= HITS_PER_FILE) errorsShown.set(file, (errorsShown.get(file) ?? 0) + 1);
    if (seen < HITS_PER_FILE || important || (terms.length > 0 && terms.every((t) => lower.includes(t))))
      keep[i] = 1;
  });
  // Context groups between "--" separators fold by group, so context lines never ride alone.
  if (!heading && contextLines > 0 && lines.includes("--")) keep.set(keepContextHits(lines, hits, terms));
  // No hit at all: a path list (`grep -l`, `grep -c`, `find`) folds by path group instead.
  if (hits.every((h) => h === undefined) && isPathList(lines)) return compressPaths(text, ctx);
  // A bare "--" group separator next to folded hits says nothing on its own.
  if (droppedCount(keep, lines.length) === 0) return "document";
  const facts = (from: number, to: number): string[] => {
    const byFile = new Map<string, number[]>();
    let context = 0;
    for (let i = from; i <= to; i++) {
      const hit = hits[i];
      if (!hit || keep[i]) continue;
      if (hit.context) {
        context++;
        continue;
      }
      const list = byFile.get(hit.file);
      if (list) list.push(hit.line);
      else byFile.set(hit.file, [hit.line]);
    }
    // One file: its count, line range and total. Several (a region): none; the kept hits after
    // the marker name every file, and per-file facts cost more tokens than they told.
    const parts: string[] = [];
    if (byFile.size === 1) {
      const [file, nums] = [...byFile][0]!;
      // A loop, not Math.min(...nums): spreading 100,000+ numbers overflows the call stack.
      let lo = nums[0]!;
      let hi = lo;
      for (const n of nums) {
        if (n < lo) lo = n;
        if (n > hi) hi = n;
      }
      parts.push(
        `${file} x${nums.length} (line ${lo === hi ? lo : `${lo}..${hi}`}; ${perFile.get(file)} hits in file)`,
      );
    }
    if (context > 0) parts.push(`${context} context lines`);
    return parts;
  };
  return {
    // With grep -C output a run mixes hits and context lines: count lines then.
    output: renderKept(lines, keep, {
      unit: contextLines > 0 ? "line" : "hit",
      facts,
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
