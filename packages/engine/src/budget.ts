// The budget of compress: the most tokens its output may cost, markers included. Applied after the
// kind's compressor (compress.ts): an output within the budget stands; an output over it, or an
// input the kind would pass through (`document`, `not_smaller`, `parse_error`, code), is replaced
// by a fold of the input's lines. A fold keeps whole original lines in the order of
// budgetOrder.ts, as many as fit, and region markers (the engine's grammar, lines.ts) stand for
// exactly the lines left out, with counts by level, so kept lines and marker spans tile the
// input. The longest prefix of that order that fits is found by bisection on the measured output,
// so the result is within the budget whenever one marker alone is. Lines stay honest (each is a
// line of the input or a marker); the same input and budget give the same output, and the output
// compressed again under the same budget comes back unchanged (it is within the budget and holds
// our markers). A one-line input is cut to a head slice instead.
import { foldOrder } from "./budgetOrder.js";
import { levelOf } from "./kinds/log/template.js";
import { countList, REGION_GAP, renderKept } from "./lines.js";
import { formatMarker, isMarkerLine, nameHandleOnce } from "./markers.js";
import { measureTokens } from "./tokens.js";
import type { Candidate, ContentKind, PassReason } from "./types.js";
import { tick } from "./work.js";

/** What a fold gives back. */
export interface Fold {
  output: string;
  tokens: number;
  /** True when `tokens` <= the budget (false only when one marker alone is over it). */
  met: boolean;
}

/** A kept line may have at most this many characters per token of budget (about a quarter of it). */
const LINE_SHARE = 1;
/** Kinds whose output lines are not lines of the input: their kept lines cannot guide a fold. */
const REWRITES: ReadonlySet<ContentKind> = new Set(["prose", "terminal", "json", "html"]);
/** Output read for its errors, failures and totals (not code, data or documents). */
const SEVERE: ReadonlySet<ContentKind> = new Set([
  "log",
  "stacktrace",
  "test",
  "diagnostics",
  "terminal",
  "text",
]);

/** Indices of the input lines an output keeps, in order (markers and rewritten lines skipped). */
function keptLines(lines: readonly string[], output: string): number[] {
  const where = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const list = where.get(l);
    if (list) list.push(i);
    else where.set(l, [i]);
  });
  const kept: number[] = [];
  let cursor = 0;
  for (const line of output.split("\n")) {
    const list = where.get(line);
    if (!list || isMarkerLine(line)) continue;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < cursor) lo = mid + 1;
      else hi = mid;
    }
    if (lo === list.length) continue;
    kept.push(list[lo]!);
    cursor = list[lo]! + 1;
  }
  return kept;
}

/** Level counts of the dropped lines in [from, to] (lines with no level are counted by the span). */
function levelFacts(lines: readonly string[], keep: Uint8Array): (from: number, to: number) => string[] {
  return (from, to) => {
    const counts = new Map<string, number>();
    for (let i = from; i <= to; i++) {
      if (keep[i]) continue;
      const level = levelOf(lines[i]!);
      if (level) counts.set(level, (counts.get(level) ?? 0) + 1);
    }
    tick(to - from + 1);
    return counts.size > 0 ? [countList(counts)] : [];
  };
}

/**
 * An input that is one long line, or little else: its head, cut where it fits, then one marker
 * for the rest (`N characters elided (line L from character C)`).
 */
function foldHead(text: string, budget: number, handle?: string): Fold {
  const marker = (from: number) => {
    const before = text.slice(0, from);
    const line = before.split("\n").length;
    const column = from - (before.lastIndexOf("\n") + 1) + 1;
    return formatMarker({
      count: text.length - from,
      unit: "character",
      where: `line ${line} from character ${column}`,
      ...(handle ? { handle } : {}),
    });
  };
  let chars = Math.min(text.length, budget * 4);
  for (;;) {
    const code = text.charCodeAt(chars - 1);
    if (chars > 0 && code >= 0xd800 && code <= 0xdbff) chars--;
    const head = text.slice(0, chars);
    const output = chars > 0 ? `${head}${head.endsWith("\n") ? "" : "\n"}${marker(chars)}` : marker(0);
    const tokens = measureTokens(output).tokens;
    if (tokens <= budget || chars === 0) return { output, tokens, met: tokens <= budget };
    chars = Math.floor(chars * Math.min(0.9, budget / tokens));
  }
}

/**
 * `input` folded to at most `budget` tokens. `kept`: the lines the kind's compressor kept (used
 * as a priority after the errors and summaries); `handle` is named once, in the largest marker.
 */
export function foldToBudget(
  input: string,
  budget: number,
  opts: { kept?: readonly number[]; handle?: string; severe?: boolean } = {},
): Fold {
  const { handle } = opts;
  const lines = input.split("\n");
  const maxLine = Math.max(80, budget * LINE_SHARE);
  // Little but long lines (minified JSON, one huge record): whole lines cannot fill the budget.
  let short = 0;
  for (const l of lines) if (l.length <= maxLine && l.trim() !== "") short++;
  if (short <= 2) return foldHead(input, budget, handle);
  const { order, templates } = foldOrder(lines, opts.kept ?? [], maxLine, opts.severe ?? true);
  const keep = new Uint8Array(lines.length);
  const facts = levelFacts(lines, keep);
  const render = (k: number): Fold => {
    keep.fill(0);
    for (let i = 0; i < k; i++) keep[order[i]!] = 1;
    const body = renderKept(lines, keep, {
      regionGap: REGION_GAP,
      facts,
      ...(handle ? { handle } : {}),
    });
    const missing = templates.filter((t) => !keep[t]).length;
    const tooSmall =
      missing > 0
        ? `${missing} of ${templates.length} error and warning templates not kept (budget ${budget} tokens), the most severe kept`
        : undefined;
    const output = withFact(nameHandleOnce(body, handle), tooSmall, lines);
    const tokens = measureTokens(output).tokens;
    return { output, tokens, met: tokens <= budget };
  };
  // The longest prefix of the order that fits: f(k) grows with k but not strictly (a kept line
  // can merge two markers), so bisection finds a fitting k, not always the largest one.
  let best = render(0);
  if (!best.met) return best;
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const r = render(mid);
    if (r.met) {
      lo = mid;
      best = r;
    } else hi = mid - 1;
  }
  return best;
}

/** `output` with `fact` added to its first own marker (before the handle, if that marker names it). */
function withFact(output: string, fact: string | undefined, lines: readonly string[]): string {
  if (!fact) return output;
  const out = output.split("\n");
  // A kept line of the input can look like a marker; only a line we wrote may take the fact.
  const input = new Set(lines);
  const at = out.findIndex((l) => isMarkerLine(l) && !input.has(l));
  if (at < 0) return output;
  const line = out[at]!;
  const named = line.lastIndexOf("; retrieve ");
  const end = named >= 0 ? named : line.lastIndexOf("]");
  out[at] = `${line.slice(0, end)}; ${fact}${line.slice(end)}`;
  return out.join("\n");
}

/** The budget as asked: a positive whole number of tokens, or none. */
export function budgetOf(asked: number | undefined): number | undefined {
  if (asked === undefined || asked === null) return undefined;
  const n = Number(asked);
  if (!Number.isFinite(n)) return undefined;
  return Math.max(1, Math.floor(n));
}

/**
 * The kind's outcome held to `budget`: a candidate within it stands (its count measured); a
 * candidate over it, or an input over it that the kind passed through, becomes the fold. The
 * kind's kept lines guide the fold unless the kind rewrites lines (`rewriting`).
 */
export function holdToBudget(
  input: string,
  outcome: Candidate | PassReason,
  tokensIn: number,
  budget: number,
  kind: ContentKind,
  handle?: string,
): Candidate | PassReason {
  let kept: number[] = [];
  if (typeof outcome === "string") {
    if (tokensIn <= budget) return outcome;
  } else {
    const measured = outcome.tokens ?? measureTokens(outcome.output);
    if (measured.tokens <= budget) return { ...outcome, tokens: measured };
    if (!REWRITES.has(kind)) kept = keptLines(input.split("\n"), outcome.output);
  }
  const fold = foldToBudget(input, budget, { kept, severe: SEVERE.has(kind), ...(handle ? { handle } : {}) });
  return { output: fold.output, lossless: false, tokens: { tokens: fold.tokens, estimated: false } };
}
