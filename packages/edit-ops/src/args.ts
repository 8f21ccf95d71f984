// Input checking shared by every operation: unknown keys and wrong types are refused with a
// message that names the key and the accepted ones (a misspelt `start_line` must never turn a
// range edit into a whole-file edit), and positions given in the path and in fields must agree.

import { EditError } from "./errors.js";
import { type PathSpec, parsePathSpec } from "./pathspec.js";

export function checkKeys(input: unknown, allowed: readonly string[], what: string): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new EditError("invalid_argument", `${what} expects an object with: ${allowed.join(", ")}`);
  }
  const rec = input as Record<string, unknown>;
  for (const key of Object.keys(rec)) {
    if (!allowed.includes(key)) {
      throw new EditError(
        "invalid_argument",
        `unknown key "${key}" for ${what}; accepted keys: ${allowed.join(", ")}`,
      );
    }
  }
  return rec;
}

export function str(rec: Record<string, unknown>, key: string, required: true): string;
export function str(rec: Record<string, unknown>, key: string, required?: false): string | undefined;
export function str(rec: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = rec[key];
  if (v === undefined || (v === null && !required)) {
    if (required) throw new EditError("invalid_argument", `\`${key}\` is required (a string)`);
    return undefined;
  }
  if (typeof v !== "string") {
    throw new EditError(
      "invalid_argument",
      `\`${key}\` must be a string, got ${Array.isArray(v) ? "array" : typeof v}`,
    );
  }
  return v;
}

export function int(rec: Record<string, unknown>, key: string): number | undefined {
  const v = rec[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return int({ [key]: Number(v.trim()) }, key);
  if (typeof v !== "number" || !Number.isSafeInteger(v)) {
    throw new EditError("invalid_range", `\`${key}\` must be a whole line number, got ${JSON.stringify(v)}`);
  }
  return v;
}

export function bool(rec: Record<string, unknown>, key: string): boolean | undefined {
  const v = rec[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new EditError("invalid_argument", `\`${key}\` must be true or false`);
  return v;
}

/** A position from the path suffix and/or fields; both may be given only if they agree. */
export interface Position {
  path: string;
  start?: number;
  end?: number;
  all: boolean;
}

export function position(
  rec: Record<string, unknown>,
  startKey = "start_line",
  endKey = "end_line",
): Position {
  const spec: PathSpec = parsePathSpec(str(rec, "path", true));
  const start = int(rec, startKey);
  const end = int(rec, endKey);
  const all = bool(rec, "all") ?? false;
  const fromPath = spec.start_line !== undefined;
  const disagree =
    (start !== undefined && start !== spec.start_line) || (end !== undefined && end !== spec.end_line);
  if (fromPath && disagree) {
    throw new EditError(
      "invalid_range",
      `the path says lines ${spec.start_line}-${spec.end_line} but the fields say ${start ?? "?"}-${end ?? start ?? "?"}; give one`,
    );
  }
  if ((spec.all || all) && end !== undefined) {
    throw new EditError("invalid_range", "ALL and a line range were both given; give one");
  }
  if ((spec.all || all) && (start !== undefined || fromPath)) {
    throw new EditError("invalid_range", "ALL and a line range were both given; give one");
  }
  if (end !== undefined && start === undefined && !fromPath) {
    throw new EditError("invalid_range", `\`${endKey}\` was given without \`${startKey}\``);
  }
  return {
    path: spec.path,
    start: fromPath ? spec.start_line : start,
    end: fromPath ? spec.end_line : (end ?? start),
    all: spec.all === true || all,
  };
}

const HASH = /^[0-9a-f]{8,64}$/i;

/** `expected_hash` or `range_hash`: the hex sha256 that read returned, or a prefix of 8+ digits. */
export function expectedHash(
  rec: Record<string, unknown>,
  key: "expected_hash" | "range_hash" = "expected_hash",
): string | undefined {
  const h = str(rec, key);
  if (h === undefined) return undefined;
  const clean = h.trim().replace(/^sha256:/i, "");
  if (!HASH.test(clean)) {
    throw new EditError(
      "invalid_argument",
      `\`${key}\` must be the hex sha256 that read returned (8-64 hex digits)`,
    );
  }
  return clean.toLowerCase();
}
