// Kept lines and marker spans tile the original: for every line-based result over both corpora,
// each output line is the next input line or a marker whose `lines a-b` starts right after the
// last line accounted for, and together they end at the input's last line. A region marker
// (`N of lines a-b elided`) is followed by the span's other lines, in order, before the next
// marker or line after b. So no line is dropped without a marker saying where, and no marker's
// span or count is off by one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir, loadCorpus } from "../bench/corpus.mjs";
import { compress, isMarkerLine } from "../src/index.js";

// Kinds that rewrite inside lines, and diagnostics (repeated messages are shortened in place).
const NOT_TILED = new Set(["prose", "terminal", "json", "html", "ndjson", "code", "diagnostics"]);
const SPAN =
  /\[caveman: (?:(?:(\d+) of )?lines? (\d+)(?:-(\d+))? elided|\d+ \w+ elided \(lines? (\d+)(?:-(\d+))?\))/;

/** Why `output` does not tile `input`, or undefined when it does. */
function untiled(input: string, output: string): string | undefined {
  const original = input.split("\n");
  let at = 0;
  // Lines a region marker leaves on show, still to come, and the region's last line (1-based).
  let shown = 0;
  let regionEnd = 0;
  for (const line of output.split("\n")) {
    if (isMarkerLine(line)) {
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

const items = [...loadCorpus(), ...loadCorpus(join(corpusDir, "broad"))];

describe("kept lines and markers tile the original", () => {
  it.each(items.map((item) => [item.id, item] as const))("%s", (_id, item) => {
    for (const hint of [undefined, item.hint]) {
      const r = compress(item.content, { handle: "cv_tiling", ...(hint ? { hint } : {}) });
      if (r.reason || NOT_TILED.has(r.kind)) continue;
      expect(untiled(item.content, r.output)).toBeUndefined();
    }
  });
});
