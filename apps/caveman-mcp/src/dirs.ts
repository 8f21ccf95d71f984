// Directories the stores live in, made without Node's recursive mkdir (see ensureDir).
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Create `dir` and its missing parents one level at a time (0700). Node 20's recursive mkdir
 * spins forever on some pseudo filesystems (e.g. `mkdirSync("/proc/x", { recursive: true })`),
 * so the libraries' own recursive mkdir must only ever see a directory that already exists.
 */
export function ensureDir(dir: string): void {
  const missing: string[] = [];
  for (let cur = dir; !existsSync(cur); cur = dirname(cur)) {
    missing.push(cur);
    if (dirname(cur) === cur) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}
