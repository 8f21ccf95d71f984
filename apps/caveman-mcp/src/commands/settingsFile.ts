// Reading and replacing a host's settings file without being led astray. Contract:
// - A symlinked settings file (dotfile managers do that) is followed only to a regular file the
//   user owns; with `within` (a project-scope install) the file and its directory must also
//   resolve inside that directory, so a hostile clone cannot point them at `~/.bashrc`. Anything
//   else — a directory, a FIFO, another user's file, a file over 16 MiB, bytes that are not
//   UTF-8 — is a SettingsFileError with a stable code, and nothing is written.
// - A write goes to a temp file with a random name in the target's own directory, created with
//   O_CREAT|O_EXCL|O_NOFOLLOW (a planted file or link at that name fails the open instead of being
//   followed), fsynced, then renamed over the target: the file is the old one or the new one.
// - `commitAll` changes several files or none: every temp file is written before the first
//   rename, and a rename that fails puts back the files already replaced.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { ensureDir } from "../stores.js";
import { SettingsFileError } from "./jsonEdit.js";

const MAX_BYTES = 16 * 1024 * 1024;

export interface Target {
  /** The path as named (what the user sees). */
  file: string;
  /** Where writes land: the file itself, or the regular file its symlink leads to. */
  real: string;
  /** Current text, or null when the file does not exist. */
  text: string | null;
  mode: number | undefined;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The nearest existing ancestor of `dir`, by its real path. */
function realDir(dir: string): string {
  let cur = dir;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      if (dirname(cur) === cur) return dir;
      rest.push(basename(cur));
      cur = dirname(cur);
    }
  }
}

const uid = () => (typeof process.getuid === "function" ? process.getuid() : undefined);

export function readTarget(file: string, within?: string): Target {
  const refuse = (why: string): never => {
    throw new SettingsFileError("settings_unreadable", `${file}: ${why}; nothing was changed`);
  };
  const root = within ? realOr(within) : undefined;
  const dir = realDir(dirname(file));
  if (root && !inside(root, dir))
    refuse(`its directory leads outside ${within} (a symlink); remove the link`);
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { file, real: join(dir, basename(file)), text: null, mode: undefined };
    return refuse(`cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  let real = join(dir, basename(file));
  if (st.isSymbolicLink()) {
    try {
      real = realpathSync(file);
    } catch {
      return refuse("is a symlink that leads nowhere; remove it or point it at a file");
    }
    if (root && !inside(root, real)) refuse(`is a symlink to ${real}, outside ${within}; remove the link`);
  }
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return refuse(`cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  try {
    const fst = fstatSync(fd);
    if (!fst.isFile()) refuse("is not a regular file");
    const me = uid();
    if (st.isSymbolicLink() && me !== undefined && fst.uid !== me)
      refuse(`is a symlink to ${real}, which another user owns`);
    if (fst.size > MAX_BYTES) refuse(`is larger than ${MAX_BYTES} bytes`);
    const bytes = readFileSync(fd);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return refuse("is not UTF-8 text");
    }
    return { file, real, text, mode: fst.mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

interface Prepared {
  target: Target;
  tmp: string;
  after: string | null;
}

function writeTemp(path: string, text: string, mode: number): string {
  ensureDir(dirname(path));
  const tmp = join(dirname(path), `.${basename(path)}.caveman-${randomBytes(8).toString("hex")}.tmp`);
  const fd = openSync(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode,
  );
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  return tmp;
}

function put(p: { real: string }, tmp: string | null): void {
  if (tmp === null) unlinkSync(p.real);
  else renameSync(tmp, p.real);
}

/**
 * Replace (or, for `after: null`, remove) every target, or none: all temp files first, then the
 * renames; a failed rename restores the files already replaced from their old text.
 */
export function commitAll(changes: ReadonlyArray<{ target: Target; after: string | null }>): void {
  const prepared: Prepared[] = [];
  try {
    for (const c of changes)
      prepared.push({
        target: c.target,
        after: c.after,
        tmp: c.after === null ? "" : writeTemp(c.target.real, c.after, c.target.mode ?? 0o600),
      });
  } catch (err) {
    for (const p of prepared) if (p.tmp) unlinkSync(p.tmp);
    throw err;
  }
  const done: Prepared[] = [];
  try {
    for (const p of prepared) {
      if (p.after === null && p.target.text === null) continue;
      put(p.target, p.after === null ? null : p.tmp);
      done.push(p);
    }
  } catch (err) {
    for (const p of prepared) if (p.tmp && !done.includes(p)) unlinkSync(p.tmp);
    for (const p of done.reverse()) {
      try {
        if (p.target.text === null) unlinkSync(p.target.real);
        else put(p.target, writeTemp(p.target.real, p.target.text, p.target.mode ?? 0o600));
      } catch {
        // Reported below with the first failure; the backup holds the old text.
      }
    }
    throw err;
  }
}

/** One file of ours (a backup, an install record), written the same careful way. */
export function writeOwn(path: string, text: string): void {
  const tmp = writeTemp(path, text, 0o600);
  renameSync(tmp, path);
}
