// Blocks of lines that repeat an earlier block word for word (indentation aside). Test runners
// print each failure twice (node --test inline and again under "failing tests:", pytest in its
// summary); the second copy says nothing the first did not, so it can fold into a marker that
// names the lines it repeats. Found greedily, earliest source first; the work is capped by a
// budget of line comparisons proportional to the input, so no input makes it quadratic.

/** Shortest block worth a marker. */
const MIN_BLOCK = 4;
/** Fewest characters a block must hold: its marker (with a handle) costs about 120. */
const MIN_BLOCK_CHARS = 200;
/** Earlier occurrences of a line tried as the start of a source block. */
const CANDIDATES = 4;
/** Shortest trimmed line that may start a block (blank lines and braces start nothing). */
const MIN_START_CHARS = 4;

/** A repeated block: lines [from, from+length) repeat lines [source, source+length). */
export interface RepeatedBlock {
  from: number;
  source: number;
  length: number;
}

/** Non-overlapping repeated blocks, in order; each source ends before its repeat starts. */
export function repeatedBlocks(lines: readonly string[]): RepeatedBlock[] {
  const t = lines.map((l) => l.trim());
  const n = t.length;
  const starts = new Map<string, number[]>();
  const blocks: RepeatedBlock[] = [];
  let budget = 16 * n + 10_000;
  let i = 0;
  while (i < n && budget > 0) {
    const key = t[i]!;
    if (key.length < MIN_START_CHARS) {
      i++;
      continue;
    }
    let best = 0;
    let bestSource = -1;
    for (const p of starts.get(key) ?? []) {
      let len = 0;
      while (i + len < n && p + len < i && t[p + len] === t[i + len] && budget-- > 0) len++;
      if (len > best) [best, bestSource] = [len, p];
    }
    const block = t.slice(i, i + best);
    const substantive =
      best >= MIN_BLOCK &&
      block.filter((l) => l !== "").length >= MIN_BLOCK - 1 &&
      block.join("\n").length >= MIN_BLOCK_CHARS;
    if (substantive) {
      blocks.push({ from: i, source: bestSource, length: best });
      i += best;
      continue;
    }
    const list = starts.get(key);
    if (!list) starts.set(key, [i]);
    else if (list.length < CANDIDATES) list.push(i);
    i++;
  }
  return blocks;
}
