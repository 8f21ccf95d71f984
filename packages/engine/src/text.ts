// Plain text: unsure content is never restructured. Only runs of identical consecutive lines
// (3 or more) fold to the first line plus a marker; anything else is a document.
import { renderKept } from "./lines.js";
import type { Candidate, KindContext, PassReason } from "./types.js";

/** Folds runs of 3+ identical consecutive lines, keeping the first of each run. */
export function compressText(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length).fill(1);
  let dropped = 0;
  let i = 0;
  while (i < lines.length) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[i]) j++;
    if (j - i >= 2) {
      for (let k = i + 1; k <= j; k++) keep[k] = 0;
      dropped += j - i;
    }
    i = j + 1;
  }
  if (dropped === 0) return "document";
  const output = renderKept(lines, keep, {
    facts: (from) => [`identical to line ${from}`],
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output, lossless: false };
}
