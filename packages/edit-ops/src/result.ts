// Builds the result every mutating operation returns: diff, counts, ranges, hashes, removed text
// and warnings. Also finds the changed span between two documents when no regions are known
// (write, undo), by comparing lines and their endings from both ends.

import { type Change, unifiedDiff } from "./doc/diff.js";
import type { Doc } from "./doc/lines.js";
import type { EditResult, LineRange, RemovedText } from "./types.js";

export function lineChange(a: Doc, b: Doc): Change | null {
  const max = Math.min(a.lines.length, b.lines.length);
  let p = 0;
  while (p < max && a.lines[p] === b.lines[p] && a.eols[p] === b.eols[p]) p++;
  let s = 0;
  while (
    s < max - p &&
    a.lines[a.lines.length - 1 - s] === b.lines[b.lines.length - 1 - s] &&
    a.eols[a.eols.length - 1 - s] === b.eols[b.eols.length - 1 - s]
  ) {
    s++;
  }
  if (p === a.lines.length && p === b.lines.length && a.bom === b.bom) return null;
  return { oldStart: p, oldEnd: a.lines.length - s, newStart: p, newEnd: b.lines.length - s };
}

export interface ResultParts {
  op: EditResult["op"];
  path: string;
  display: string;
  before: Doc;
  after: Doc;
  changes: Change[];
  removed: RemovedText[];
  preview: boolean;
  written: boolean;
  changed: boolean;
  created: boolean;
  deleted: boolean;
  oldHash: string | null;
  hash: string | null;
  warnings: string[];
  maxDiffBytes: number;
}

export function buildResult(p: ResultParts): EditResult {
  const { diff, added, removed } = unifiedDiff(p.display, p.before, p.after, p.changes, p.maxDiffBytes);
  const ranges: LineRange[] = p.changes.map((c) => ({ start_line: c.newStart + 1, end_line: c.newEnd }));
  return {
    path: p.path,
    op: p.op,
    preview: p.preview,
    written: p.written,
    changed: p.changed,
    created: p.created,
    deleted: p.deleted,
    diff,
    lines_added: added,
    lines_removed: removed,
    ranges,
    total_lines: p.after.lines.length,
    old_hash: p.oldHash,
    hash: p.hash,
    removed: p.removed,
    warnings: p.warnings,
  };
}
