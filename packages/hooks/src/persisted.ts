// Reading a host's persisted copy of a large output. Contract: the path must be absolute, resolve
// (symlinks followed) inside one of the allowed roots, be a regular file no larger than the cap,
// and hold valid UTF-8; otherwise null — the caller then passes the host's own output through.
// The file is opened once and checked through its descriptor, so a swap between check and read
// cannot point us elsewhere.
import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/** The persisted output's text, or null when it is not ours to read (see the contract above). */
export function readPersisted(path: string, roots: readonly string[], maxBytes: number): string | null {
  if (!isAbsolute(path)) return null;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return null;
  }
  const realRoots = roots.flatMap((r) => {
    try {
      return [realpathSync(r)];
    } catch {
      return [];
    }
  });
  if (!realRoots.some((r) => inside(real, r))) return null;
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    const bytes = buf.subarray(0, off);
    return isUtf8(bytes) ? bytes.toString("utf8") : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
