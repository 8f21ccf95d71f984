// Public option and result types of @caveman/edit-ops (the input types sit beside their schemas in
// input/schemas.ts, what an edit removed in plan/plan.ts). Inputs and results use snake_case field
// names (they travel to and from the wire unchanged); factory options use camelCase.

import type { RemovedText } from "./plan/plan.js";

export interface EditorOptions {
  /** Allowed roots (absolute, existing directories). Relative paths resolve from the first. */
  roots: readonly string[];
  /** Directory for the undo journal (created 0700 if missing). */
  journalDir: string;
  /** Undo entries kept per file (default 20). */
  journalDepth?: number;
  /** Read cap in lines (default 2000). */
  maxReadLines?: number;
  /** Read cap in bytes of line text (default 100 KiB). */
  maxReadBytes?: number;
  /** Largest file or content that will be read or edited (default 64 MiB). */
  maxFileBytes?: number;
  /** Longest wait for another process's edit of the same file, in ms (default 10000); then `busy`. */
  lockTimeoutMs?: number;
  /** Diffs longer than this are cut with a marker (default 64 KiB). */
  maxDiffBytes?: number;
  /** Milliseconds since the epoch (default Date.now). */
  clock?: () => number;
  /** Random bytes for temp-file names (default crypto.randomBytes). */
  random?: (size: number) => Uint8Array;
}

export interface LineRange {
  start_line: number;
  /** `end_line < start_line` is an empty range placed before `start_line` (lines were only removed). */
  end_line: number;
}

export interface EditResult {
  path: string;
  op: "write" | "insert" | "replace" | "delete" | "batch" | "undo";
  preview: boolean;
  /** False when the result equals the file (nothing written) or in preview. */
  written: boolean;
  changed: boolean;
  created: boolean;
  deleted: boolean;
  diff: string;
  lines_added: number;
  lines_removed: number;
  /** Where the edit landed in the new file, one per edit (a batch has several). */
  ranges: LineRange[];
  total_lines: number;
  old_hash: string | null;
  hash: string | null;
  /** Everything this edit removed or overwrote, with where it came from. */
  removed: RemovedText[];
  warnings: string[];
}

export interface ReadResult {
  path: string;
  total_lines: number;
  start_line: number;
  end_line: number;
  /** Lines as `<n>\t<text>`, joined with "\n". */
  numbered: string;
  /** The exact text of the returned lines, with their own endings. */
  content: string;
  hash: string;
  range_hash: string;
  truncated: boolean;
  /** The range to ask for next when the read was capped. */
  next: { start_line: number; end_line: number } | null;
  line_ending: "lf" | "crlf" | "mixed" | "none";
  bom: boolean;
  final_newline: boolean;
  /** A line longer than the byte cap is cut; this is its number. */
  clipped_line: number | null;
}
