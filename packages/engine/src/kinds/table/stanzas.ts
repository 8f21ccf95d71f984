// `apt-cache show`, `dpkg -s`: stanzas of `Field: value` lines (continuations start with a space),
// one per package version, between blank lines. What tells stanzas apart is their identity: the
// first field (`Package:`, `Start-Date:`) and `Version:`, kept for every stanza, with `Status:`
// (installed or not) and apt history's `Commandline:`; the rest of each stanza folds into a marker.

import { REGION_GAP, renderKept } from "../../lines.js";
import { queryTerms } from "../../shared/query.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { isStanzas } from "./detect.js";

const IDENTITY = /^(Version|Status|Commandline):/;

/** Compresses stanzas of fields, or undefined when `text` is not made of them. */
export function compressStanzas(text: string, ctx: KindContext): Candidate | PassReason | undefined {
  const lines = text.split("\n");
  if (!isStanzas(lines)) return undefined;
  const keep = new Uint8Array(lines.length);
  const terms = queryTerms(ctx.query);
  let first = true;
  lines.forEach((line, i) => {
    const lower = line.toLowerCase();
    if (line.trim() === "") {
      keep[i] = 1;
      first = true;
      return;
    }
    if (first || IDENTITY.test(line) || (terms.length > 0 && terms.every((t) => lower.includes(t))))
      keep[i] = 1;
    first = false;
  });
  return {
    output: renderKept(lines, keep, {
      unit: "line",
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
