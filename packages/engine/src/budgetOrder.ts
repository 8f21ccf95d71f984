// The order in which a budgeted fold keeps lines, most needed first: the first and last lines;
// one verbatim line per distinct error template, then per warning template (so a budget too small
// for all of them keeps the most severe); failures, assertions, summaries and totals; the lines
// the kind's own compressor kept; the lines right after and before each of those (stack frames,
// the assertion under a failing test); then the rest from both ends inward. A line too long to be
// worth a share of the budget is never kept (its marker counts it).
import { templateOf } from "./kinds/log/template.js";
import { isContinuation, severity } from "./shared/severity.js";
import { tick } from "./work.js";

/** A test failure, an assertion's expectation, a panic: what a reader of a failing run needs. */
const FAILURE =
  /(?:^|\s)(?:FAIL(?:ED)?|✗|×|✕|not ok)\b|\bAssertion(?:Error)?\b|^\s*(?:Expected|Received|expected|actual)\b|\bassert(?:ion)?\b|\bpanicked at\b/;
/** Counts and totals: a runner's closing lines, a compiler's error count, an exit status. */
const SUMMARY =
  /\b\d+ (?:passed|failed|failing|passing|errors?|warnings?|skipped|pending|tests?|suites?|problems?|files?)\b|^\s*(?:Tests?|Test Files|Test Suites|Suites|Summary|Totals?|Duration|Time|Ran \d+ tests?)\b|^=+ .*\b(?:passed|failed|errors?)\b.* =+$|^(?:OK|FAILED)\b|\bexit (?:code|status)\b|\bBUILD (?:SUCCESS|FAILED|FAILURE)\b/i;

const QUOTED = /(['"`])[^'"`\n]{0,120}\1/g;
const PATH = /[\w.@~-]*[/\\][\w.@~/\\-]*/g;

/**
 * What makes two error lines the same error: the line with its variable parts masked, and also
 * its quoted names and paths (`lib/a.js(4,20): error TS7006: Parameter 'x' ...` is one error
 * whatever the file and the parameter).
 */
function errorTemplate(line: string): string {
  return templateOf(line.trim()).replace(QUOTED, "$1#$1").replace(PATH, "#");
}

/** The order of a fold, and the error and warning templates it met (for the "too small" fact). */
export interface FoldOrder {
  /** 0-based line indices, most needed first, each once. */
  order: number[];
  /** The indices of `order` that are one line per error or warning template, in order. */
  templates: number[];
}

/**
 * The fold order of `lines`. `kept` are the lines the kind's compressor kept (indices, in order);
 * `maxLine` is the most characters a kept line may have; `severe` says the text is output that
 * errors and summaries are read from (a log, a test run), not code or data.
 */
export function foldOrder(
  lines: readonly string[],
  kept: readonly number[],
  maxLine: number,
  severe: boolean,
): FoldOrder {
  const n = lines.length;
  tick(n);
  const seen = new Uint8Array(n);
  const order: number[] = [];
  const add = (i: number) => {
    if (i < 0 || i >= n || seen[i] || lines[i]!.length > maxLine) return;
    seen[i] = 1;
    order.push(i);
  };
  let first = 0;
  while (first < n - 1 && lines[first]!.trim() === "") first++;
  let last = n - 1;
  while (last > 0 && lines[last]!.trim() === "") last--;
  add(first);
  add(last);
  const errors: number[] = [];
  const warnings: number[] = [];
  const notable: number[] = [];
  const templates = new Set<string>();
  // Code, data and documents have no errors to keep first: "error" there is an identifier.
  for (let i = 0; severe && i < n; i++) {
    const line = lines[i]!;
    if (line.length > maxLine) continue;
    const sev = severity(line);
    const failure = FAILURE.test(line);
    if (sev === 0 && !failure) {
      if (SUMMARY.test(line)) notable.push(i);
      continue;
    }
    const t = errorTemplate(line);
    if (templates.has(t)) continue;
    templates.add(t);
    (sev === 2 || failure ? errors : warnings).push(i);
  }
  const marked = [...errors, ...warnings];
  for (const i of marked) add(i);
  for (const i of notable) add(i);
  for (const i of kept) add(i);
  // Neighbours: the frames after an error, then the line before it.
  for (const i of [...marked, ...notable]) {
    for (let k = i + 1; k < n && k <= i + 3 && (k === i + 1 || isContinuation(lines[k]!)); k++) add(k);
    add(i - 1);
  }
  for (let a = 0, b = n - 1; a <= b; a++, b--) {
    add(a);
    add(b);
  }
  return { order, templates: marked };
}
