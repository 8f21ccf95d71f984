// Public option, input and result types of @caveman/edit-ops. Inputs and results use snake_case
// field names (they travel to and from the wire unchanged); factory options use camelCase.

import type { Target } from "./targets.js";

export type { Target };

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

interface Guarded {
  /** Compute and diff, write nothing. */
  preview?: boolean;
  /** Refuse with `conflict` unless the file's sha256 (full hex or a prefix of 8+) is this. */
  expected_hash?: string;
}

interface Anchored extends Guarded {
  /**
   * The `range_hash` read returned for exactly the lines this edit touches (an insert: the line
   * it goes after). The edit goes ahead while those lines are unchanged, even if the rest of the
   * file moved (it follows them when lines were added or removed above); otherwise `conflict`.
   * With it, a changed `expected_hash` no longer refuses the edit by itself.
   */
  range_hash?: string;
}

export interface ReadInput {
  /** May carry a position: `a.ts:10`, `a.ts:5-15`, `a.ts:ALL`, `file:///abs/a.ts`. */
  path: string;
  start_line?: number;
  end_line?: number;
  target?: Target;
  /** Extra lines around a target (default 0). */
  context?: number;
}

export interface WriteInput extends Guarded {
  path: string;
  content: string;
  /** Create missing parent directories (default false). */
  create_dirs?: boolean;
  /** Keep the existing file's BOM and dominant line ending (default true). */
  keep_format?: boolean;
}

export interface InsertInput extends Anchored {
  path: string;
  /** Insert after this line; 0 = top of the file. Or give it as `path:N`. */
  after_line?: number;
  content: string;
}

export interface ReplaceInput extends Anchored {
  path: string;
  start_line?: number;
  end_line?: number;
  /** Text mode: exact text that must occur once. Range mode: what the range must hold. */
  old?: string;
  content?: string;
  /** Alias of `content` in text mode (`old` -> `new`). */
  new?: string;
}

export interface DeleteInput extends Anchored {
  path: string;
  start_line?: number;
  end_line?: number;
  /** Delete every line (same as `path:ALL`). */
  all?: boolean;
  /** What the range must hold (compared ignoring line-ending style and the final newline). */
  old?: string;
}

/** One edit of a batch. Positions refer to the file as it was before the batch. */
export interface BatchEdit {
  start_line?: number;
  end_line?: number;
  after_line?: number;
  old?: string;
  content?: string;
  new?: string;
  /** As `range_hash` of a single edit: the read's hash of the lines this edit touches. */
  range_hash?: string;
}

export interface BatchInput extends Guarded {
  path: string;
  edits: BatchEdit[];
}

export interface UndoInput extends Guarded {
  path: string;
}

export interface Origin {
  /** Absolute path as given (inside the roots). */
  path: string;
  /** 1-based inclusive lines in the file before the edit. */
  start_line: number;
  end_line: number;
}

export interface RemovedText {
  text: string;
  origin: Origin;
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
