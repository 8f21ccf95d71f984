// The lines shown around a hit, as `grep -n -C1` would, plus what the kind says a reader needs to
// place it: a diff hit's file and hunk headers, a table row's header, the continuation lines
// (stack frames) of a log line.
import { isContinuation } from "../shared/severity.js";
import type { ContentKind } from "../types.js";

/** Context lines of a hit: 0-based line indices, any order. */
export type ContextOf = (hit: number) => number[];

/** Continuation lines shown after a log hit, beyond the one line of plain context. */
const FRAMES = 3;

const FOLLOWED: ReadonlySet<ContentKind> = new Set(["log", "stacktrace", "test", "diagnostics", "terminal"]);

/** The nearest line at or before each line that `is` accepts (-1 when none). */
function nearest(lines: readonly string[], is: (line: string) => boolean): Int32Array {
  const out = new Int32Array(lines.length);
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    if (is(lines[i]!)) last = i;
    out[i] = last;
  }
  return out;
}

/** How to find the context of a hit in `lines` of content of `kind`. */
export function contextFor(lines: readonly string[], kind: ContentKind): ContextOf {
  const around = (h: number): number[] => {
    const out: number[] = [];
    if (h > 0) out.push(h - 1);
    if (h + 1 < lines.length) out.push(h + 1);
    return out;
  };
  if (kind === "diff") {
    const file = nearest(lines, (l) => l.startsWith("diff --git ") || l.startsWith("+++ "));
    const hunk = nearest(lines, (l) => l.startsWith("@@"));
    return (h) => {
      const out = around(h);
      if (file[h]! >= 0 && file[h]! < h - 1) out.push(file[h]!);
      if (hunk[h]! > file[h]! && hunk[h]! < h - 1) out.push(hunk[h]!);
      return out;
    };
  }
  if (kind === "table") return (h) => (h > 1 ? [0, ...around(h)] : around(h));
  if (FOLLOWED.has(kind))
    return (h) => {
      const out = around(h);
      if (h + 1 < lines.length && isContinuation(lines[h + 1]!))
        for (let k = h + 2; k < lines.length && k <= h + 1 + FRAMES && isContinuation(lines[k]!); k++)
          out.push(k);
      return out;
    };
  return around;
}
