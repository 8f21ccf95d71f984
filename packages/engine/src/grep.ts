// grep/search hits (`path:line:text`, `path-line-context`). Every file keeps its first hits and
// every hit that matches the query or looks like an error; the rest of each file's hits fold into
// a marker naming the file, the hit count and the line numbers it covers. File names are never lost.
import { queryTerms } from "./json/select.js";
import { droppedCount, renderKept } from "./lines.js";
import { severity } from "./log/template.js";
import type { Candidate, KindContext, PassReason } from "./types.js";

const HIT = /^([^\s:][^:\n]*?)([:-])(\d+)[:-]/;
/** Hits shown per file before the rest fold. */
export const HITS_PER_FILE = 3;
/** Error-looking hits shown per file beyond the first ones. */
export const ERROR_HITS_PER_FILE = 3;

interface Hit {
  file: string;
  line: number;
}

/** Compresses grep output, or says why it cannot. */
export function compressGrep(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length);
  const hits: Array<Hit | undefined> = [];
  const perFile = new Map<string, number>();
  const errorsShown = new Map<string, number>();
  const terms = queryTerms(ctx.query);
  lines.forEach((line, i) => {
    const m = HIT.exec(line);
    if (!m) {
      keep[i] = 1; // separators, "Binary file ... matches", summaries
      hits.push(undefined);
      return;
    }
    const file = m[1]!;
    const seen = perFile.get(file) ?? 0;
    perFile.set(file, seen + 1);
    hits.push({ file, line: Number(m[3]) });
    const lower = line.toLowerCase();
    // Error-looking hits matter only while they stand out: a few per file beyond the first hits.
    const important = severity(line) === 2 && (errorsShown.get(file) ?? 0) < ERROR_HITS_PER_FILE;
    if (important && seen >= HITS_PER_FILE) errorsShown.set(file, (errorsShown.get(file) ?? 0) + 1);
    if (seen < HITS_PER_FILE || important || (terms.length > 0 && terms.every((t) => lower.includes(t))))
      keep[i] = 1;
  });
  // A bare "--" group separator next to folded hits says nothing on its own.
  if (droppedCount(keep, lines.length) === 0) return "document";
  const facts = (from: number, to: number): string[] => {
    const byFile = new Map<string, number[]>();
    for (let i = from; i <= to; i++) {
      const hit = hits[i];
      if (!hit) continue;
      const list = byFile.get(hit.file);
      if (list) list.push(hit.line);
      else byFile.set(hit.file, [hit.line]);
    }
    const parts = [...byFile].slice(0, 4).map(([file, nums]) => {
      const lo = Math.min(...nums);
      const hi = Math.max(...nums);
      return `${file} x${nums.length} (line ${lo === hi ? lo : `${lo}..${hi}`}; ${perFile.get(file)} hits in file)`;
    });
    if (byFile.size > 4) parts.push(`${byFile.size - 4} more files`);
    return parts;
  };
  return {
    output: renderKept(lines, keep, { unit: "hit", facts, ...(ctx.handle ? { handle: ctx.handle } : {}) }),
    lossless: false,
  };
}
