// Diffstat listings: `git log --stat`, `git show --stat`, `git diff --stat`, `diffstat`. A
// listing is per-file lines ` path | 12 ++++----` (or `| Bin 0 -> 12 bytes`) in blocks, each
// block under its commit header and closed by ` N files changed, ...`. Commit headers, messages
// and summaries stay; each block keeps its first files, its most changed ones and those matching
// the query, and the other file lines of a block fold into one marker counting files and changed lines (the sum of
// the per-file counts, which git writes exactly; the bars are scaled, so no insert/delete split
// is claimed). Lines are kept whole, so the output tiles the input like any line compressor.

import { REGION_GAP, renderKept } from "../../lines.js";
import { plural } from "../../markers.js";
import { queryTerms } from "../../shared/query.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { tick } from "../../work.js";

// What follows a file line's last "|": the count and its bar, or a binary file's sizes.
const STAT_TAIL = /^ +(?:(\d+)(?: [+-]+)?|Bin .*)$/;

/**
 * A file line's count of changed lines, -1 for a binary file, undefined for another line. Cut at
 * the last "|" by hand: a regex with a lazy path before ` +\|` was quadratic on long space runs.
 */
function statCount(line: string): number | undefined {
  if (line.charCodeAt(0) !== 32 || line.charCodeAt(1) === 32 || line.length < 4) return undefined;
  const bar = line.lastIndexOf("|");
  if (bar < 3 || line.charCodeAt(bar - 1) !== 32) return undefined;
  const m = STAT_TAIL.exec(line.slice(bar + 1));
  if (!m) return undefined;
  return m[1] === undefined ? -1 : Number(m[1]);
}
const SUMMARY = /^ \d+ files? changed(?:, \d+ insertions?\(\+\))?(?:, \d+ deletions?\(-\))?$/;
/** File lines each block shows before the rest fold. */
const FILES_SHOWN = 3;
/** A listing needs this many file lines. */
const MIN_STAT_LINES = 8;

/**
 * True for a diffstat listing: at least MIN_STAT_LINES file lines, at least one summary line,
 * no hunk, and file lines and summaries make up 40%+ of the lines with text.
 */
export function isStatListing(lines: readonly string[]): boolean {
  let stats = 0;
  let summaries = 0;
  let text = 0;
  for (const l of lines) {
    if (l.trim() === "") continue;
    if (l.startsWith("@@")) return false;
    text++;
    if (statCount(l) !== undefined) stats++;
    else if (SUMMARY.test(l)) summaries++;
  }
  return stats >= MIN_STAT_LINES && summaries > 0 && stats + summaries >= text * 0.4;
}

/** File lines each block shows for the most changed lines: where a change went. */
const LARGEST_SHOWN = 8;

/** Keeps each block's LARGEST_SHOWN file lines with the most changed lines (ties: the earlier). */
function keepLargest(changed: Int32Array, keep: Uint8Array): void {
  let i = 0;
  while (i < changed.length) {
    if (changed[i]! === -2) {
      i++;
      continue;
    }
    const block: number[] = [];
    while (i < changed.length && changed[i]! !== -2) block.push(i++);
    block.sort((a, b) => changed[b]! - changed[a]! || a - b);
    for (const k of block.slice(0, LARGEST_SHOWN)) keep[k] = 1;
  }
}

/** Compresses a diffstat listing, or says why it cannot. */
export function compressStat(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const n = lines.length;
  tick(n);
  const keep = new Uint8Array(n).fill(1);
  // changed[i]: the file line's count of changed lines, -1 for a binary file, -2 for no file line.
  const changed = new Int32Array(n).fill(-2);
  const terms = queryTerms(ctx.query);
  let inBlock = 0;
  for (let i = 0; i < n; i++) {
    const count = statCount(lines[i]!);
    if (count === undefined) {
      inBlock = 0;
      continue;
    }
    changed[i] = count;
    inBlock++;
    const lower = lines[i]!.toLowerCase();
    if (inBlock > FILES_SHOWN && !(terms.length > 0 && terms.every((t) => lower.includes(t)))) keep[i] = 0;
  }
  keepLargest(changed, keep);
  if (!keep.includes(0)) return "not_smaller";
  const facts = (from: number, to: number): string[] => {
    let files = 0;
    let lineCount = 0;
    let binary = 0;
    for (let i = from; i <= to; i++) {
      if (keep[i]) continue;
      if (changed[i] === -1) binary++;
      else if (changed[i]! >= 0) {
        files++;
        lineCount += changed[i]!;
      }
    }
    const parts = [`${plural(files, "file")}, ${plural(lineCount, "changed line")}`];
    if (binary > 0) parts.push(`${plural(binary, "binary file")}`);
    return parts;
  };
  return {
    output: renderKept(lines, keep, {
      facts,
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
