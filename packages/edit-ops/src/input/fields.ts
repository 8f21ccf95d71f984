// The fields of parsed input, checked once: the rules a schema cannot state, one field (or one
// position) at a time. A position may ride in the path and in fields, and both must agree (a
// misspelt or missing position never becomes a whole-file edit); hashes are hex, with or without
// `sha256:`; content is text that fits. requests.ts puts them together per operation; nothing
// here touches a file.

import { EditError } from "../errors.js";
import { parsePathSpec } from "./pathspec.js";
import type { Target } from "./targets.js";

/** The guard every mutating operation takes. */
export interface Guard {
  preview: boolean;
  /** Lower-case hex, 8-64 digits. */
  expectedHash: string | undefined;
}

/** A position from the path suffix and/or fields. */
export interface Position {
  path: string;
  start?: number;
  end?: number;
  all: boolean;
}

const HASH = /^[0-9a-f]{8,64}$/i;

/** `expected_hash` or `range_hash`: the hex sha256 that read returned, or a prefix of 8+ digits. */
export function hashArg(value: string | undefined, key: "expected_hash" | "range_hash"): string | undefined {
  if (value === undefined) return undefined;
  const clean = value.trim().replace(/^sha256:/i, "");
  if (!HASH.test(clean)) {
    throw new EditError(
      "invalid_argument",
      `\`${key}\` must be the hex sha256 that read returned (8-64 hex digits)`,
    );
  }
  return clean.toLowerCase();
}

export function guardOf(args: { preview?: boolean | undefined; expected_hash?: string | undefined }): Guard {
  return { preview: args.preview ?? false, expectedHash: hashArg(args.expected_hash, "expected_hash") };
}

interface PositionFields {
  path: string;
  all?: boolean | undefined;
  [key: string]: unknown;
}

/** The position of a line edit; `startKey`/`endKey` name its fields (insert: after_line alone). */
export function positionOf(args: PositionFields, startKey = "start_line", endKey = "end_line"): Position {
  const spec = parsePathSpec(args.path);
  const start = args[startKey] as number | undefined;
  const end = args[endKey] as number | undefined;
  const all = args.all ?? false;
  const fromPath = spec.start_line !== undefined;
  const disagree =
    (start !== undefined && start !== spec.start_line) || (end !== undefined && end !== spec.end_line);
  if (fromPath && disagree) {
    throw new EditError(
      "invalid_range",
      `the path says lines ${spec.start_line}-${spec.end_line} but the fields say ${start ?? "?"}-${end ?? start ?? "?"}; give one`,
    );
  }
  if ((spec.all || all) && (end !== undefined || start !== undefined || fromPath)) {
    throw new EditError("invalid_range", "ALL and a line range were both given; give one");
  }
  if (end !== undefined && start === undefined && !fromPath) {
    throw new EditError("invalid_range", `\`${endKey}\` was given without \`${startKey}\``);
  }
  return {
    path: spec.path,
    ...(fromPath ? { start: spec.start_line } : start !== undefined ? { start } : {}),
    ...(fromPath ? { end: spec.end_line } : (end ?? start) !== undefined ? { end: end ?? start } : {}),
    all: spec.all === true || all,
  };
}

/** A path that names a whole file: `what` says why a line position there is refused. */
export function wholeFile(path: string, code: "invalid_argument" | "invalid_range", why: string): string {
  const spec = parsePathSpec(path);
  if (spec.start_line !== undefined || spec.all)
    throw new EditError(code, why.replaceAll("{path}", spec.path));
  return spec.path;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Content must fit and be text: NUL would turn the file binary, a lone surrogate cannot be UTF-8. */
export function contentSize(content: string, max: number): void {
  if (content.length > max || Buffer.byteLength(content) > max) {
    throw new EditError("too_large", `content is over the ${max}-byte limit; split the edit`);
  }
  if (content.includes("\0")) {
    throw new EditError("invalid_argument", "content contains NUL characters; only text can be written");
  }
  if (LONE_SURROGATE.test(content)) {
    throw new EditError(
      "invalid_argument",
      "content contains an unpaired UTF-16 surrogate, which has no UTF-8 form; fix the text",
    );
  }
}

export function noPosition(op: string): EditError {
  return new EditError(
    "invalid_range",
    `${op} needs a position: start_line/end_line, path:5-15, or path:ALL${op === "replace" ? ", or an exact `old` text" : ""}. ` +
      "Nothing was changed (a missing position never means the whole file)",
  );
}

/** The replacement text: `content`, or its alias `new` (not both). */
export function replacement(args: { content?: string | undefined; new?: string | undefined }): string {
  if (args.content !== undefined && args.new !== undefined) {
    throw new EditError("invalid_argument", "give the replacement as `content` or `new`, not both");
  }
  const v = args.content ?? args.new;
  if (v === undefined)
    throw new EditError("invalid_argument", "`content` (or `new`) is required: the replacement text");
  return v;
}

/** A read target: `marker` needs its text; `function`/`tag` a name or a line. */
export function targetOf(t: {
  kind: Target["kind"];
  name?: string | undefined;
  line?: number | undefined;
  text?: string | undefined;
}): Target {
  if (t.kind === "marker") {
    if (t.text === undefined) throw new EditError("invalid_argument", "`text` is required (a string)");
    return { kind: "marker", text: t.text };
  }
  return {
    kind: t.kind,
    ...(t.name !== undefined ? { name: t.name } : {}),
    ...(t.line !== undefined ? { line: t.line } : {}),
  };
}

export function positive(v: number | undefined, fallback: number, name: string, max?: number): number {
  if (v === undefined) return fallback;
  if (!Number.isSafeInteger(v) || v < 1)
    throw new EditError("invalid_argument", `${name} must be a positive integer`);
  if (max !== undefined && v > max) throw new EditError("invalid_argument", `${name} must be at most ${max}`);
  return v;
}
