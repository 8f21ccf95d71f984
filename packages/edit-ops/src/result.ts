// Builds the result every mutating operation returns: diff, counts, ranges, hashes, removed text
// and warnings.

import { type Change, unifiedDiff } from "./doc/diff.js";
import type { Doc } from "./doc/lines.js";
import type { RemovedText } from "./plan/plan.js";
import type { EditResult, LineRange } from "./types.js";

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
