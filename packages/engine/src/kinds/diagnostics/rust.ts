// rustc and clippy print one block per diagnostic: `warning: message`, ` --> file:line:col`, a
// code frame, notes, then a blank line. A lint firing hundreds of times (clippy's "constants have
// by default a `'static` lifetime" x549) repeats the same message in every block: the first
// SHOWN_WHOLE blocks of a message stay, later ones fold whole into the markers, which count the
// messages they hold. The message is compared exactly (names in backticks included): "`a`
// shadows a previous binding" and "`b` shadows ..." are different findings.

import { countList } from "../../lines.js";
import { tick } from "../../work.js";

const BLOCK_HEAD = /^(warning|error)(\[\w+\])?: (.+)$/;
/** A message needs this many blocks before its later ones fold. */
const MIN_REPEATS = 4;
const SHOWN_WHOLE = 2;

/** The message of each folded block's head line (index -> message), after clearing `keep` for its lines. */
export function foldRepeatedBlocks(lines: readonly string[], keep: Uint8Array): Map<number, string> {
  tick(lines.length);
  const blocks: Array<{ from: number; to: number; message: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = BLOCK_HEAD.exec(lines[i]!);
    if (!m) continue;
    let to = i;
    while (to + 1 < lines.length && lines[to + 1]!.trim() !== "" && !BLOCK_HEAD.test(lines[to + 1]!)) to++;
    // Only a block with a location line is a diagnostic ("warning: `x` generated 9 warnings" is a summary).
    if (to > i && /^\s*-->\s/.test(lines[i + 1]!)) blocks.push({ from: i, to, message: `${m[1]}: ${m[3]}` });
    i = to;
  }
  const count = new Map<string, number>();
  for (const b of blocks) count.set(b.message, (count.get(b.message) ?? 0) + 1);
  const seen = new Map<string, number>();
  const folded = new Map<number, string>();
  for (const b of blocks) {
    const n = seen.get(b.message) ?? 0;
    seen.set(b.message, n + 1);
    if ((count.get(b.message) ?? 0) < MIN_REPEATS || n < SHOWN_WHOLE) continue;
    for (let k = b.from; k <= b.to; k++) keep[k] = 0;
    // The blank line after the block goes with it.
    if (b.to + 1 < lines.length && lines[b.to + 1]!.trim() === "") keep[b.to + 1] = 0;
    folded.set(b.from, b.message);
  }
  return folded;
}

/** Facts of a dropped run [from, to]: the folded messages it holds, by message. */
export function foldedFacts(folded: ReadonlyMap<number, string>, from: number, to: number): string[] {
  const like = new Map<string, number>();
  for (let k = from; k <= to; k++) {
    const message = folded.get(k);
    if (message !== undefined) like.set(message, (like.get(message) ?? 0) + 1);
  }
  return like.size > 0 ? [`repeated messages shown above: ${countList(like, 2)}`] : [];
}
