// The tiling check shared by the corpus and property tiling tests: kept lines and marker spans
// must reproduce the original. Each output line is the next input line or a marker whose span
// starts right after the last line accounted for; a region marker (`N of lines a-b elided`) is
// followed by the span's other lines, in order, before anything after b. A line of the input that
// merely looks like a marker (a loose `[caveman: ...]` note) counts as a kept line where it sits.
import { isMarkerLine } from "../src/index.js";

/** Kinds that rewrite inside lines, and diagnostics (repeated messages are shortened in place). */
export const NOT_TILED = new Set(["prose", "terminal", "json", "html", "ndjson", "code", "diagnostics"]);
const SPAN =
  /\[caveman: (?:(?:(\d+) of )?lines? (\d+)(?:-(\d+))? elided|\d+ \w+ elided \(lines? (\d+)(?:-(\d+))?\))/;

/** Why `output` does not tile `input`, or undefined when it does. */
export function untiled(input: string, output: string): string | undefined {
  const original = input.split("\n");
  let at = 0;
  // Lines a region marker leaves on show, still to come, and the region's last line (1-based).
  let shown = 0;
  let regionEnd = 0;
  for (const line of output.split("\n")) {
    // Only a marker-like line needs the search (a region can span thousands of lines).
    const kept = (l: string) => (shown > 0 ? original.slice(at, regionEnd).includes(l) : original[at] === l);
    if (isMarkerLine(line) && !kept(line)) {
      if (shown > 0) return `${line} inside a region, ${shown} of its lines still to show`;
      const m = SPAN.exec(line);
      if (!m) return `marker without a line span: ${line}`;
      const from = Number(m[2] ?? m[4]);
      if (from !== at + 1) return `${line} starts at ${from}, expected ${at + 1}`;
      const to = Number(m[3] ?? m[2] ?? m[5] ?? m[4]);
      if (m[1] === undefined) at = to;
      else {
        shown = to - from + 1 - Number(m[1]);
        regionEnd = to;
        if (shown < 0) return `${line} elides more lines than its span holds`;
        if (shown === 0) at = to;
      }
      continue;
    }
    if (shown > 0) {
      let j = at;
      while (j < regionEnd && original[j] !== line) j++;
      if (j === regionEnd)
        return `${JSON.stringify(line)} is not a line of the region before line ${regionEnd}`;
      at = j + 1;
      if (--shown === 0) at = regionEnd;
      continue;
    }
    if (original[at] !== line) return `line ${at + 1} is not ${JSON.stringify(line)}`;
    at++;
  }
  if (shown > 0) return `output ends with ${shown} lines of a region not shown`;
  return at === original.length ? undefined : `ends at line ${at} of ${original.length}`;
}
