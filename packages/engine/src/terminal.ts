// Terminal output: ANSI escape sequences are stripped and carriage-return redraws collapse to
// the last state of each line (what the terminal finally showed) when that last redraw covers
// every earlier one; otherwise the line stays whole. The cleaned text is then
// compressed as whatever it is underneath (test, log, ...); if that does not apply, the cleaned
// text itself is the candidate.
import type { Candidate, ContentKind, KindContext, PassReason } from "./types.js";

const ESCAPES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal escapes
  /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][A-Z0-9]|\u001b[=>78]/g;

/** The text a terminal finally shows: escapes stripped, each line's last redraw kept. */
export function cleanTerminal(text: string): string {
  return text
    .replace(ESCAPES, "")
    .split("\n")
    .map((line) => {
      const body = line.endsWith("\r") ? line.slice(0, -1) : line;
      const parts = body.split("\r").filter((p) => p !== "");
      const last = parts[parts.length - 1] ?? "";
      // A "\r" only moves the cursor: a shorter last redraw leaves the tail of a longer earlier
      // one on screen ("error: disk full\rok" shows "okror: disk full"). Escapes that erase the
      // line are stripped by then, so such a line is kept whole rather than guessed.
      if (parts.some((p) => p.length > last.length)) return line;
      return last + (line.endsWith("\r") ? "\r" : "");
    })
    .join("\n");
}

/** Compresses terminal output; `inner` compresses the cleaned text as its own kind. */
export function compressTerminal(
  text: string,
  ctx: KindContext,
  inner: (clean: string, ctx: KindContext) => { kind: ContentKind; result: Candidate | PassReason },
): Candidate | PassReason {
  const clean = cleanTerminal(text);
  const { kind, result } = inner(clean, ctx);
  if (kind !== "terminal" && typeof result !== "string") return { output: result.output, lossless: false };
  if (clean === text) return "not_smaller";
  return { output: clean, lossless: false };
}
