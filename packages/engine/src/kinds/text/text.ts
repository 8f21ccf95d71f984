// Plain text: unsure content is never restructured as a whole. Runs of identical consecutive
// lines (3 or more) fold to the first line plus a marker; and a log region inside the text (a CI
// transcript's build log, a terminal session's server output: see structure.ts `logRegions`)
// folds as a log, by region, while everything around it stays as it is. Nothing else is elided.
import { renderKept } from "../../lines.js";
import { logRegions } from "../../structure.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { foldFacts, planLog } from "../log/fold.js";

/** Folds log regions and runs of 3+ identical consecutive lines, keeping the first of each run. */
export function compressText(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const n = lines.length;
  const keep = new Uint8Array(n).fill(1);
  const inLog = new Uint8Array(n);
  // For log lines: the kept line each one repeats, in whole-text indices (see planLog).
  const rep = new Int32Array(n).fill(-1);
  const sev = new Uint8Array(n);
  for (const [from, to] of logRegions(lines)) {
    const plan = planLog(lines.slice(from, to), ctx);
    for (let k = 0; k < to - from; k++) {
      const r = plan.rep[k]!;
      inLog[from + k] = 1;
      keep[from + k] = plan.keep[k]!;
      rep[from + k] = r >= 0 ? r + from : r <= -2 ? r - from : -1;
      sev[from + k] = plan.sev[k]!;
    }
  }
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && !inLog[j + 1] && !inLog[i] && lines[j + 1] === lines[i]) j++;
    if (j - i >= 2) for (let k = i + 1; k <= j; k++) keep[k] = 0;
    i = j + 1;
  }
  if (!keep.includes(0)) return "document";
  const logFacts = foldFacts(lines, rep, sev, keep);
  const output = renderKept(lines, keep, {
    // Runs never cross a region's edge: a region's first and last lines are always kept.
    facts: (from, to) => (inLog[from] ? logFacts(from, to) : [`identical to line ${from}`]),
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output, lossless: false };
}
