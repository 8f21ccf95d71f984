// Confinement. Every path is resolved against the caller's allowed roots: relative paths from the
// first root, absolute paths must lie inside one. Containment is checked twice — on the lexical
// path and on its realpath — so neither `..` nor a symlink can lead out. A file that does not
// exist yet is checked through its nearest existing ancestor. Names like `..foo` are ordinary.

import { lstatSync, realpathSync } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { EditError, fsError } from "../errors.js";

export interface Root {
  given: string;
  real: string;
}

export interface ResolvedPath {
  /** Absolute path as the caller named it (symlinks not followed). Used in results and origins. */
  path: string;
  /** Where the bytes live: the realpath, or realpath(existing ancestor) + the missing tail. */
  real: string;
  /** The path relative to the root that holds it, for diff headers. */
  display: string;
  exists: boolean;
}

export function openRoots(roots: readonly string[]): Root[] {
  if (!Array.isArray(roots) || roots.length === 0) {
    throw new EditError("invalid_argument", "createEditor needs at least one allowed root directory");
  }
  return roots.map((r) => {
    if (typeof r !== "string" || !isAbsolute(r)) {
      throw new EditError("invalid_argument", `allowed root ${JSON.stringify(r)} must be an absolute path`);
    }
    let real: string;
    try {
      real = realpathSync(r);
      if (!lstatSync(real).isDirectory()) throw new Error("not a directory");
    } catch (err) {
      throw new EditError(
        "invalid_argument",
        `allowed root ${r} is not an existing directory`,
        {},
        { cause: err },
      );
    }
    return { given: resolve(r), real };
  });
}

export function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  if (rel === "") return true;
  if (isAbsolute(rel)) return false;
  return !(rel === ".." || rel.startsWith(`..${sep}`));
}

function outside(p: string, roots: Root[], why: string): EditError {
  const list = roots.map((r) => r.given);
  return new EditError(
    "outside_roots",
    `${p} ${why}; allowed roots: ${list.join(", ")}. Use a path inside one of them`,
    { path: p, roots: list },
  );
}

/** `C:\x`, `C:/x` or `\\server\x`: absolute on Windows, a strange relative name here. */
const FOREIGN_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

export async function resolvePath(input: string, roots: Root[]): Promise<ResolvedPath> {
  // `dir/` or `dir/.` names a directory: resolving it would drop the slash, and a write would
  // then create a file called `dir`.
  if (/(?:^|\/)\.{0,2}$/.test(input) || (sep === "\\" && /(?:^|\\)\.{0,2}$/.test(input))) {
    throw new EditError("invalid_argument", `${input} names a directory, not a file; give a file path`, {
      path: input,
    });
  }
  // On POSIX a Windows absolute path would resolve as a relative name inside the first root and
  // quietly create `C:\Users\…` there; it can never be inside these roots.
  if (sep === "/" && FOREIGN_ABSOLUTE.test(input)) throw outside(input, roots, "is a Windows path");
  const lexical = isAbsolute(input) ? resolve(input) : resolve(roots[0]!.given, input);
  const holder = roots.find((r) => inside(r.given, lexical) || inside(r.real, lexical));
  if (!holder) throw outside(lexical, roots, "is outside the allowed roots");
  const display =
    relative(inside(holder.given, lexical) ? holder.given : holder.real, lexical) || basename(lexical);

  let real: string;
  let exists = true;
  try {
    real = await realpath(lexical);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw fsError(err, lexical, "resolve");
    if (await isDanglingLink(lexical)) {
      // realpath fails on links into /proc's magic links (`/dev/stdin` -> /proc/self/fd/0 ->
      // `pipe:[…]`) although something is there: stat follows them. That is no file to edit.
      if (await reachable(lexical)) {
        throw new EditError(
          "invalid_argument",
          `${lexical} is not a regular file (it leads to a pipe, socket, terminal or device); give a file path`,
          { path: lexical },
        );
      }
      throw new EditError(
        "not_found",
        `${lexical} is a symlink whose target does not exist; fix or remove the link first`,
        { path: lexical },
      );
    }
    exists = false;
    real = await realTail(lexical);
  }
  if (!roots.some((r) => inside(r.real, real))) {
    throw outside(lexical, roots, `resolves to ${real}, which is outside the allowed roots`);
  }
  return { path: lexical, real, display, exists };
}

async function isDanglingLink(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isSymbolicLink();
  } catch {
    return false;
  }
}

async function reachable(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** realpath of the nearest existing ancestor joined with the part that does not exist yet. */
async function realTail(p: string): Promise<string> {
  const tail: string[] = [];
  let cur = p;
  for (;;) {
    tail.unshift(basename(cur));
    const parent = dirname(cur);
    if (parent === cur) return p;
    try {
      const realParent = await realpath(parent);
      return join(realParent, ...tail);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") throw fsError(err, parent, "resolve");
      if (await isDanglingLink(parent)) {
        throw new EditError("not_found", `${parent} is a symlink whose target does not exist`, { path: p });
      }
    }
    cur = parent;
  }
}
