// grep output with context (`grep -C2`, `git grep -n -C1`): hits `path:line:text`, context lines
// `path-line-text` and `--` between groups. Context lines alone read like dated names
// ("2024-01-05-init"), so a context line counts only when its path is the path of a hit.

import { tick } from "../../work.js";

const HIT = /^([^\s:][^:\n]*?):(\d+):/;
const CONTEXT = /^([^\s:][^:\n]*?)-(\d+)-/;

/** Most non-blank lines are hits, context lines of a hit's file, or group separators. */
export function isGrepWithContext(lines: readonly string[]): boolean {
  tick(lines.length);
  const hitFiles = new Set<string>();
  let hits = 0;
  for (const line of lines) {
    const m = HIT.exec(line);
    if (m && !/\s/.test(m[1]!)) {
      hitFiles.add(m[1]!);
      hits++;
    }
  }
  if (hits < 2) return false;
  let total = 0;
  let shaped = 0;
  let context = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    total++;
    if (line === "--") {
      shaped++;
      continue;
    }
    const m = HIT.exec(line);
    if (m && hitFiles.has(m[1]!)) {
      shaped++;
      continue;
    }
    if (contextOfHitFile(line, hitFiles)) {
      shaped++;
      context++;
    }
  }
  return context > 0 && shaped >= total * 0.8;
}

/** A `path-line-` context line whose path (which may hold "-NN-" itself) is a hit's file. */
function contextOfHitFile(line: string, hitFiles: ReadonlySet<string>): boolean {
  const c = CONTEXT.exec(line);
  if (!c) return false;
  if (hitFiles.has(c[1]!)) return true;
  // A lazy match stops at the first "-NN-": try the later ones too (bounded by the line).
  for (let at = line.indexOf("-", c[1]!.length + 1); at > 0 && at < 300; at = line.indexOf("-", at + 1)) {
    const path = line.slice(0, at);
    if (hitFiles.has(path) && /^-\d+-/.test(line.slice(at))) return true;
  }
  return false;
}
