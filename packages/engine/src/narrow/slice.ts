// A structural slice (a line span, a JSON pointer's value) held to the view's budget: the exact
// bytes when they fit; else as many whole lines from the start as fit, then one marker naming the
// lines not shown and the query that brings them (`lines:a-b`). A first line too long for the
// budget is cut by characters, and the marker names the page (`page:N`) that holds the rest.
import { formatMarker, lineSpan } from "../markers.js";
import { measureTokens } from "../tokens.js";
import { tick } from "../work.js";
import { pageAt } from "./page.js";

export interface SliceInput {
  original: string;
  /** Offsets [start, end) of the slice. */
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
  budget: number;
  pageTokens: number;
}

/** The slice, or its budgeted head and a marker; `cut` says whether anything was left out. */
export function sliceView(input: SliceInput): { output: string; cut: boolean } {
  const { original, start, end, budget } = input;
  const text = original.slice(start, end);
  if (measureTokens(text).tokens <= budget) return { output: text, cut: false };
  let lastLine = input.line;
  for (let i = text.indexOf("\n"); i >= 0 && i < text.length - 1; i = text.indexOf("\n", i + 1)) lastLine++;
  const worst = formatMarker({
    count: end - start,
    unit: "character",
    verb: "skipped",
    where: `${lineSpan(lastLine, lastLine)} from character ${end - start}`,
    facts: [`over the ${budget}-token view`, `next: "page:${original.length}"`],
  });
  const available = budget - measureTokens(`${worst}\n`).tokens;
  const out: string[] = [];
  let used = 0;
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf("\n", at);
    const stop = nl < 0 ? text.length : nl;
    const line = text.slice(at, stop);
    tick(line.length);
    const cost = measureTokens(`${line}\n`).tokens;
    if (used + cost > available) break;
    out.push(line);
    used += cost;
    at = stop + 1;
  }
  if (at >= text.length) out.pop();
  // Line costs add up to about the view's cost: measure it, and give back lines until it fits.
  while (out.length > 0) {
    const from = input.line + out.length;
    const marker = formatMarker({
      count: lastLine - from + 1,
      unit: "line",
      verb: "skipped",
      where: lineSpan(from, lastLine),
      facts: [`over the ${budget}-token view`, `next: "lines:${from}-${lastLine}"`],
    });
    const output = `${out.join("\n")}\n${marker}`;
    if (out.length === 1 || measureTokens(output).tokens <= budget) return { output, cut: true };
    out.pop();
  }
  // Not even the first line fits: its head, by characters.
  const nl = text.indexOf("\n");
  const first = nl < 0 ? text : text.slice(0, nl);
  let chars = Math.min(first.length, Math.max(1, available * 3));
  while (chars > 1 && measureTokens(first.slice(0, chars)).tokens > available)
    chars = Math.max(1, Math.floor(chars * 0.8));
  const code = first.charCodeAt(chars - 1);
  if (chars > 1 && code >= 0xd800 && code <= 0xdbff) chars--;
  const marker = formatMarker({
    count: first.length - chars,
    unit: "character",
    verb: "skipped",
    where: `${lineSpan(input.line, input.line)} from character ${chars + 1}`,
    facts: [
      `over the ${budget}-token view`,
      `next: "page:${pageAt(original, start + chars, input.pageTokens)}"`,
    ],
  });
  return { output: `${first.slice(0, chars)}\n${marker}`, cut: true };
}
