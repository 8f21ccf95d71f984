// Compiler and linter diagnostics (tsc, eslint, gcc/clang, rustc, mypy). Every diagnostic line
// with its location and code, the first detail line after it, and every summary line are kept;
// code frames (source excerpts with carets) and further detail lines collapse into markers, and a
// message repeated many times is written out twice, then only as location and code (diagrepeat.ts).

import { renderKept } from "../../lines.js";
import { formatMarker, lineSpan } from "../../markers.js";
import { countTokens } from "../../tokens.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { foldRepeatedMessages, repeatedMarker } from "./repeat.js";
import { foldedFacts, foldRepeatedBlocks } from "./rust.js";

const HEADER =
  /^[^\s:]+:\d+:\d+[\s:]|\(\d+,\d+\): (error|warning|message) [A-Z]+\d+|:\d+:\d+ - (error|warning) [A-Z]+\d+|^[^\s:]+:\d+(:\d+)?: (fatal error|error|warning|note)\b|^(error|warning)(\[[A-Z]?\d+\])?: |^\s+\d+:\d+\s+(error|warning)\s|^\S.*\.\w+$|^Found \d+ error|^\d+ (problems?|errors?|warnings?)\b|^✖ \d+ problem|error: could not compile|^Found \d+ errors? in|^Errors\s+Files$|\berrors? (found|generated)\b/;
const FRAME = /^\s*\d+\s*[|│]|^\s+[~^]+\s*$|^\s*\|\s|^\s*-->\s|^\s*= (note|help):|^\s*\d+ +\S|^\s+[~^]+/;

/** Fewest consecutive shortened lines worth one marker. */
const MIN_RUN = 3;

/**
 * The marker after shortened lines [from, to] costs fewer tokens than the shortening cuts. The
 * handle is left out: it is named once per output (nameHandleOnce), not in every marker.
 */
function shorteningPays(
  lines: readonly string[],
  short: ReadonlyMap<number, string>,
  from: number,
  to: number,
): boolean {
  const whole = lines.slice(from, to + 1).join("\n");
  const kept: string[] = [];
  for (let k = from; k <= to; k++) kept.push(short.get(k)!);
  return countTokens(repeatedMarker(lines, from, to)) < countTokens(whole) - countTokens(kept.join("\n"));
}

/** Compresses diagnostics, or says why it cannot. */
export function compressDiagnostics(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length).fill(1);
  let detail = 0;
  let dropped = 0;
  lines.forEach((line, i) => {
    if (HEADER.test(line) && !/^\s+[~^]/.test(line)) {
      detail = 0;
      return;
    }
    if (line.trim() === "") return;
    // rustc's " --> file:line:col" carries the location: always keep it.
    if (/^\s*-->\s/.test(line)) return;
    if (FRAME.test(line) || detail >= 1) {
      keep[i] = 0;
      dropped++;
      return;
    }
    detail++;
  });
  const short = foldRepeatedMessages(lines);
  const folded = foldRepeatedBlocks(lines, keep);
  if (dropped === 0 && !short && folded.size === 0) return "not_smaller";
  // Blank lines around a dropped frame go with it, so one marker replaces the whole frame.
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "" || !keep[i]) continue;
    if ((i > 0 && !keep[i - 1]) || (i + 1 < lines.length && !keep[i + 1] && lines[i + 1]!.trim() !== ""))
      keep[i] = 0;
  }
  if (!short)
    return {
      output: renderKept(lines, keep, {
        facts: (from, to) => foldedFacts(folded, from, to),
        ...(ctx.handle ? { handle: ctx.handle } : {}),
      }),
      lossless: false,
    };
  // Shortened lines are kept (as their location-and-code prefix); each run of them gets a marker.
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!keep[i]) {
      let j = i;
      while (j + 1 < lines.length && !keep[j + 1]) j++;
      const spec = { count: j - i + 1, unit: "line", where: lineSpan(i + 1, j + 1) };
      // A marker that would cost more tokens than its lines (a lone "    ~~~") leaves them verbatim.
      // Lines many times the marker's length always cost more: counted only when it is close.
      const marker = formatMarker(spec);
      const dropped = lines.slice(i, j + 1).join("\n");
      if (dropped.length > marker.length * 8 || countTokens(marker) <= countTokens(dropped))
        out.push(formatMarker(ctx.handle ? { ...spec, handle: ctx.handle } : spec));
      else for (let k = i; k <= j; k++) out.push(lines[k]!);
      i = j + 1;
      continue;
    }
    const prefix = short.get(i);
    if (prefix === undefined) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < lines.length && keep[j + 1] && short.has(j + 1)) j++;
    // A marker costs about as much as two messages: short runs stay whole, and so does a run
    // whose marker costs at least the tokens the shortening cuts (short messages, long names).
    if (j - i + 1 < MIN_RUN || !shorteningPays(lines, short, i, j))
      for (let k = i; k <= j; k++) out.push(lines[k]!);
    else {
      for (let k = i; k <= j; k++) out.push(short.get(k)!);
      out.push(repeatedMarker(lines, i, j, ctx.handle));
    }
    i = j + 1;
  }
  return { output: out.join("\n"), lossless: false };
}
