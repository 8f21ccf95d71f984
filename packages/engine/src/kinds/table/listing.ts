// `ls -lR`: one section per directory (`dir:`, `total N`, mode rows). The headings say which
// directories exist, what a reader of a recursive listing looks for first, so every heading and
// total stays; each section keeps its first rows and its last, the rest fold per section.

import { REGION_GAP, renderKept } from "../../lines.js";
import { queryTerms } from "../../shared/query.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { LS_ROW } from "./detect.js";

/** Rows shown at the top of each section (`.` and `..` fold: they say nothing). */
const FIRST_ROWS = 2;

/** Compresses a sectioned long listing, or undefined when `text` is not one. */
export function compressSectionedListing(text: string, ctx: KindContext): Candidate | PassReason | undefined {
  const lines = text.split("\n");
  const headings = lines.filter((l, i) => /^\S.*:$/.test(l) && /^total \d+$/.test(lines[i + 1] ?? "")).length;
  if (headings < 2) return undefined;
  const keep = new Uint8Array(lines.length).fill(1);
  const terms = queryTerms(ctx.query);
  let i = 0;
  while (i < lines.length) {
    if (!LS_ROW.test(lines[i]!)) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < lines.length && LS_ROW.test(lines[end + 1]!)) end++;
    let shown = 0;
    for (let k = i; k < end; k++) {
      const name = lines[k]!.split(/\s+/).slice(8).join(" ");
      const lower = lines[k]!.toLowerCase();
      if (
        name !== "." &&
        name !== ".." &&
        (shown < FIRST_ROWS || (terms.length > 0 && terms.every((t) => lower.includes(t))))
      )
        shown++;
      else keep[k] = 0;
    }
    i = end + 1;
  }
  return {
    output: renderKept(lines, keep, {
      unit: "entry",
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
