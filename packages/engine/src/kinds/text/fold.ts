// The fold every line-structured text gets when its kind's compressor would pass it through
// (unsure detection, a document of distinct lines, a code file that does not re-balance) or
// saves little: lines are kept verbatim or elided under region markers, which is safe for any
// text. Kept: the first and last lines, summaries (`N passing`), commit subjects, every line that names an error or a warning (the first
// of each template, then a few more), query matches, and the first line of each line template
// (digits, ids and bracketed names masked) up to a budget, sampled evenly over the text when the
// templates outnumber it, so every part of the output has a witness. Nothing is rewritten.
// Markers count the error and warning lines they stand for (one instance per template stays).
import { droppedCount, REGION_GAP, renderKept } from "../../lines.js";
import { queryTerms } from "../../shared/query.js";
import { isSummary, severity } from "../../shared/severity.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { tick } from "../../work.js";
import { templateOf } from "../log/template.js";

const HEAD = 6;
const TAIL = 3;
/** Lines shorter than this hold no structure worth a fold. */
const MIN_LINES = 24;
/** Share of lines first-of-template sampling may keep (at least MIN_SAMPLE lines). */
const SAMPLE_SHARE = 0.08;
const MIN_SAMPLE = 12;
/** Severe lines kept per template, and in all. */
const SEVERE_PER_TEMPLATE = 2;
const SEVERE_MAX = 60;
const COMMIT = /^commit [0-9a-f]{7,40}\b/;
/** Lines between a commit line and its message. */
const HEADER = /^(Author|Date|Merge|Commit|AuthorDate|CommitDate):/;
/** A sampled line longer than this costs more than it shows: sampling skips it. */
const LONG_LINE = 400;

/** How many dropped lines of [from, to] name an error and a warning: `errors x28, warnings x3`. */
function severeCounts(sev: Uint8Array, keep: Uint8Array, from: number, to: number): string[] {
  let errors = 0;
  let warnings = 0;
  for (let i = from; i <= to; i++) {
    if (keep[i]) continue;
    if (sev[i] === 2) errors++;
    else if (sev[i] === 1) warnings++;
  }
  const facts: string[] = [];
  if (errors > 0) facts.push(`errors x${errors}`);
  if (warnings > 0) facts.push(`warnings x${warnings}`);
  return facts.length > 0 ? [facts.join(", ")] : [];
}

/** Region-folds `text` as lines, or says why it cannot shrink. */
export function foldLines(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const n = lines.length;
  if (n < MIN_LINES) return "document";
  tick(n);
  const keep = new Uint8Array(n);
  for (let i = 0; i < Math.min(HEAD, n); i++) keep[i] = 1;
  for (let i = Math.max(0, n - TAIL); i < n; i++) keep[i] = 1;
  const terms = queryTerms(ctx.query);
  const sev = new Uint8Array(n);
  const severeSeen = new Map<string, number>();
  let severe = 0;
  const seen = new Set<string>();
  const firsts: number[] = [];
  let subjectDue = false;
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const t = templateOf(line.length > 240 ? line.slice(0, 240) : line);
    if (!seen.has(t)) {
      seen.add(t);
      if (line.length <= LONG_LINE) firsts.push(i);
    }
    sev[i] = severity(line);
    if (isSummary(line)) keep[i] = 1;
    // A commit's subject (`git log`, `git show`), the line a reader of history looks for.
    if (COMMIT.test(line)) subjectDue = true;
    else if (subjectDue && line.startsWith("    ")) {
      keep[i] = 1;
      subjectDue = false;
    } else if (subjectDue && !HEADER.test(line)) subjectDue = false;
    if (severe < SEVERE_MAX && sev[i]! > 0) {
      const c = severeSeen.get(t) ?? 0;
      if (c < SEVERE_PER_TEMPLATE) {
        severeSeen.set(t, c + 1);
        keep[i] = 1;
        severe++;
      }
    }
    if (terms.length > 0) {
      const lower = line.toLowerCase();
      if (terms.every((term) => lower.includes(term))) keep[i] = 1;
    }
  }
  const budget = Math.max(MIN_SAMPLE, Math.round(n * SAMPLE_SHARE));
  const stride = firsts.length > budget ? firsts.length / budget : 1;
  for (let k = 0; k < firsts.length; k += stride) keep[firsts[Math.floor(k)]!] = 1;
  if (droppedCount(keep, n) === 0) return "document";
  const output = renderKept(lines, keep, {
    regionGap: REGION_GAP,
    facts: (from, to) => severeCounts(sev, keep, from, to),
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output, lossless: false };
}
