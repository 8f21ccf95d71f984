// A read tool's line-number gutter ("   12\t..." or "    12→...") is recognised so that the
// content behind it can be classified and scanned, while output lines keep the gutter intact.

const GUTTER = /^ *\d+(?:\t|→)/;

/** Length of the gutter prefix of `line` (0 when it has none). */
function gutterLength(line: string): number {
  const m = GUTTER.exec(line);
  return m ? m[0].length : 0;
}

/**
 * True when nearly every non-empty line carries a gutter, the first one included: a TSV whose
 * rows open with a numeric id (`10000<TAB>...`) under a header row is not a numbered listing.
 */
export function hasGutter(lines: readonly string[]): boolean {
  let with_ = 0;
  let total = 0;
  for (const line of lines) {
    if (line === "") continue;
    total++;
    if (GUTTER.test(line)) with_++;
    else if (total === 1) return false;
  }
  return total >= 3 && with_ >= total * 0.9;
}

/** The lines without their gutters (unchanged when the text has none). */
export function stripGutters(lines: readonly string[]): string[] {
  if (!hasGutter(lines)) return [...lines];
  return lines.map((line) => line.slice(gutterLength(line)));
}
