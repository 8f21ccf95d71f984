// Parses the position forms an agent may put in a path: `a.ts:10`, `a.ts:5-15`, `a.ts:ALL`,
// `file:///abs/a.ts:10`, `file:///abs/a.ts#L5-L15`, and Windows paths (`C:\a.ts:3`, where the
// drive colon is never a position). Pure: no file system, no validation of the numbers beyond
// "is an integer" — the editor checks them against the file and says what is wrong.

import { EditError } from "../errors.js";

/** A path with the position it carried, if any. Lines are 1-based; `all` means the whole file. */
export interface PathSpec {
  path: string;
  start_line?: number;
  end_line?: number;
  all?: boolean;
}

const LINE_SUFFIX = /:(-?\d+)(?:-(-?\d+))?$/;
const ALL_SUFFIX = /:ALL$/i;
const URI_FRAGMENT = /#L(-?\d+)(?:-L?(-?\d+))?$/i;
const DRIVE_ONLY = /^[A-Za-z]$/;

/** Split a path spec into the path and its position. Throws `invalid_argument` on an empty or NUL path. */
export function parsePathSpec(spec: string): PathSpec {
  if (typeof spec !== "string" || spec.length === 0) {
    throw new EditError("invalid_argument", "path must be a non-empty string");
  }
  if (spec.includes("\0")) throw new EditError("invalid_argument", "path must not contain NUL characters");
  let rest = spec;
  let isUri = false;
  const out: PathSpec = { path: rest };
  if (/^file:/i.test(rest)) {
    isUri = true;
    const frag = URI_FRAGMENT.exec(rest);
    if (frag) {
      rest = rest.slice(0, frag.index);
      out.start_line = toInt(frag[1]!);
      out.end_line = frag[2] === undefined ? out.start_line : toInt(frag[2]);
    }
  }
  if (out.start_line === undefined) {
    const pos = takeSuffix(rest);
    if (pos) {
      rest = pos.rest;
      Object.assign(out, pos.spec);
    }
  }
  out.path = isUri ? fileUriToPath(rest) : rest;
  if (out.path.length === 0) throw new EditError("invalid_argument", `path spec "${spec}" names no file`);
  return out;
}

function takeSuffix(rest: string): { rest: string; spec: Omit<PathSpec, "path"> } | null {
  const all = ALL_SUFFIX.exec(rest);
  if (all) {
    const head = rest.slice(0, all.index);
    if (head.length > 0 && !DRIVE_ONLY.test(head)) return { rest: head, spec: { all: true } };
    return null;
  }
  const m = LINE_SUFFIX.exec(rest);
  if (!m) return null;
  const head = rest.slice(0, m.index);
  // "C:10" is drive C, not a file named C with a position; "C:\x:10" is a position.
  if (head.length === 0 || DRIVE_ONLY.test(head)) return null;
  const start = toInt(m[1]!);
  const end = m[2] === undefined ? start : toInt(m[2]);
  return { rest: head, spec: { start_line: start, end_line: end } };
}

function toInt(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n))
    throw new EditError("invalid_range", `line number ${text} is not a usable integer`);
  return n;
}

/** `file:///a/b`, `file://localhost/a/b`, `file:///C:/a/b` -> a local path (percent-decoded). */
function fileUriToPath(uri: string): string {
  let body = uri.replace(/^file:/i, "");
  if (body.startsWith("//")) {
    body = body.slice(2);
    const slash = body.indexOf("/");
    const host = slash === -1 ? body : body.slice(0, slash);
    if (host !== "" && host.toLowerCase() !== "localhost") {
      throw new EditError(
        "invalid_argument",
        `file URI "${uri}" names a remote host; only local files can be edited`,
      );
    }
    body = slash === -1 ? "" : body.slice(slash);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(body);
  } catch (err) {
    throw new EditError("invalid_argument", `file URI "${uri}" has bad percent-encoding`, {}, { cause: err });
  }
  if (decoded.includes("\0")) throw new EditError("invalid_argument", "path must not contain NUL characters");
  // file:///C:/x -> C:/x
  if (/^\/[A-Za-z]:[/\\]/.test(decoded)) return decoded.slice(1);
  return decoded;
}
