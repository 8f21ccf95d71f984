// Terminal output: ANSI escape sequences are stripped and carriage-return redraws collapse to
// the last state of each line (what the terminal finally showed) when every earlier state is a
// redraw of that same line (a progress counter or bar: the same text but for digits and bar
// characters, or a prefix of it) and the last covers them all; otherwise the line stays whole,
// so text that merely uses lone CRs as line breaks is never cut down to its last line. Dropped
// states are counted in one marker on top. The cleaned text is then compressed as whatever it
// is underneath (test, log, ...); if that does not apply, the cleaned text itself is the candidate.
import { formatMarker } from "../../markers.js";
import type { Candidate, ContentKind, KindContext, PassReason } from "../../types.js";

const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal escapes
  /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][A-Z0-9]|\u001b[=>78]/g;

// Digits, and the characters progress bars draw with, vary between redraws of one line.
const REDRAWN = /[\d=#>.\-*|/\\\u2580-\u259f ]+/g;
// A progress tail: counters, percentages, fractions, bars (`... 45%`, `0% (1/129)`, `[==>  ]`).
const TAIL_CHAR = /[\d%=#>.\-*|/\\()[\] ,:\u2580-\u259f]/;
const PROGRESS_MARK = /[\d\u2580-\u259f=#]/;

/** `earlier` without its progress tail (scanned from the end: a `...+$` regex is quadratic). */
function stemOf(earlier: string): string {
  let end = earlier.length;
  while (end > 0 && TAIL_CHAR.test(earlier[end - 1]!)) end--;
  return earlier.slice(0, end);
}

/**
 * True when `earlier` is a former state of the line whose final state is `last` (`maskedLast`
 * is `last` with REDRAWN runs masked): a prefix of it; the same text but for digits and bar
 * characters, which the last state may extend (`..., done.`); or a stem followed by a progress
 * tail that the last state continues (`(Reading database ... 45%` before `(Reading database
 * ... 6089 files ... installed.)`).
 */
function isRedraw(earlier: string, last: string, maskedLast: string): boolean {
  if (last.startsWith(earlier)) return true;
  if (maskedLast.startsWith(earlier.replace(REDRAWN, "~"))) return true;
  const stem = stemOf(earlier);
  return stem !== earlier && PROGRESS_MARK.test(earlier.slice(stem.length)) && last.startsWith(stem);
}

/** A line as the terminal finally shows it, and how many of its states that dropped. */
function lastState(line: string): { line: string; dropped: number } {
  const body = line.endsWith("\r") ? line.slice(0, -1) : line;
  const parts = body.split("\r").filter((p) => p !== "");
  const last = parts[parts.length - 1] ?? "";
  // A "\r" only moves the cursor: a shorter last redraw leaves the tail of a longer earlier
  // one on screen ("error: disk full\rok" shows "okror: disk full"). Escapes that erase the
  // line are stripped by then, so such a line is kept whole rather than guessed; so is a
  // line whose parts are different lines (text using lone CRs as line breaks).
  const maskedLast = last.replace(REDRAWN, "~");
  for (let k = 0; k < parts.length - 1; k++)
    if (parts[k]!.length > last.length || !isRedraw(parts[k]!, last, maskedLast)) return { line, dropped: 0 };
  return { line: last + (line.endsWith("\r") ? "\r" : ""), dropped: Math.max(0, parts.length - 1) };
}

/** The text a terminal finally shows, and how many overwritten line states it dropped. */
export function cleanTerminal(text: string): { text: string; dropped: number } {
  const stripped = text.replace(ESCAPES, "");
  // Only lines holding a CR can change: visit those, copy the text between them in slices.
  let dropped = 0;
  let out = "";
  let copied = 0;
  for (let at = stripped.indexOf("\r"); at >= 0; ) {
    const start = stripped.lastIndexOf("\n", at) + 1;
    let end = stripped.indexOf("\n", at);
    if (end < 0) end = stripped.length;
    const line = stripped.slice(start, end);
    const shown = lastState(line);
    if (shown.line !== line) {
      out += stripped.slice(copied, start) + shown.line;
      copied = end;
      dropped += shown.dropped;
    }
    at = stripped.indexOf("\r", end);
  }
  return { text: copied === 0 ? stripped : out + stripped.slice(copied), dropped };
}

/** Compresses terminal output; `inner` compresses the cleaned text as its own kind. */
export function compressTerminal(
  text: string,
  ctx: KindContext,
  inner: (clean: string, ctx: KindContext) => { kind: ContentKind; result: Candidate | PassReason },
): Candidate | PassReason {
  const { text: clean, dropped } = cleanTerminal(text);
  // Overwritten states are what the terminal no longer showed; still, they are counted, never
  // dropped without a word.
  const note = dropped > 0 ? `${formatMarker({ count: dropped, unit: "overwritten line state" })}\n` : "";
  const { kind, result } = inner(clean, ctx);
  if (kind !== "terminal" && typeof result !== "string")
    return { output: note + result.output, lossless: false };
  if (clean === text) return "not_smaller";
  return { output: note + clean, lossless: false };
}
