// grep output with context groups (`grep -C2`, `git grep -n -C1`): groups of lines between `--`
// separators around hits of one file. The hit lines are what a search is for: each file shows its
// first HITS_PER_FILE hits, up to ERROR_HITS_PER_FILE when they name an error (a search for
// throw/raise/TODO wants the error it finds, not the first three), and every hit matching the
// query. Context lines (around the first hit of each file too: keeping them cost a third of the
// output and no gold line) and separators fold into markers. Every shown line is an input line.

import { tick } from "../../work.js";

export interface ContextHit {
  file: string;
  line: number;
  context: boolean;
}

/** A hit that names an error (what a search for throw/raise/TODO is after): always shown. */
const NAMES_ERROR =
  /\b(throw|throws|raise|panic!?|TODO|FIXME|XXX)\b|[a-z]Error\b|\bError\(|Exception\b|assertThrows/;
/** Hits shown per file. */
const HITS_PER_FILE = 3;
/** Hits shown per file when they name an error. */
const ERROR_HITS_PER_FILE = 10;

/** The lines of grep -C output to keep, its lines parsed as `hits` (undefined: a separator or other line). */
export function keepContextHits(
  lines: readonly string[],
  hits: ReadonlyArray<ContextHit | undefined>,
  terms: readonly string[],
): Uint8Array {
  tick(lines.length);
  const keep = new Uint8Array(lines.length);
  const hitsShown = new Map<string, number>();
  lines.forEach((line, k) => {
    const hit = hits[k];
    if (line === "--") return;
    if (!hit) {
      keep[k] = 1; // "Binary file ... matches", summaries: not part of a group
      return;
    }
    if (hit.context) return;
    const lower = line.toLowerCase();
    const shown = hitsShown.get(hit.file) ?? 0;
    if (
      (terms.length > 0 && terms.every((t) => lower.includes(t))) ||
      shown < HITS_PER_FILE ||
      (shown < ERROR_HITS_PER_FILE && NAMES_ERROR.test(line))
    ) {
      keep[k] = 1;
      hitsShown.set(hit.file, shown + 1);
    }
  });
  // A separator stays between two kept groups only; elsewhere it folds with its neighbours.
  for (let k = 0; k < lines.length; k++)
    if (lines[k] === "--" && (k === 0 || !keep[k - 1] || k + 1 >= lines.length || !keep[k + 1])) keep[k] = 0;
  return keep;
}
