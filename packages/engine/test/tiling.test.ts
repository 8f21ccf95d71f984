// Kept lines and marker spans tile the original: for every line-based result over both corpora,
// each output line is the next input line or a marker whose `lines a-b` starts right after the
// last line accounted for, and together they end at the input's last line. So no line is dropped
// without a marker saying where, and no marker's span is off by one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir, loadCorpus } from "../bench/corpus.mjs";
import { compress, isMarkerLine } from "../src/index.js";

// Kinds that rewrite inside lines, and diagnostics (repeated messages are shortened in place).
const NOT_TILED = new Set(["prose", "terminal", "json", "html", "ndjson", "code", "diagnostics"]);
const SPAN = /\[caveman: (?:lines? (\d+)(?:-(\d+))? elided|\d+ \w+ elided \(lines? (\d+)(?:-(\d+))?\))/;

/** Why `output` does not tile `input`, or undefined when it does. */
function untiled(input: string, output: string): string | undefined {
  const original = input.split("\n");
  let at = 0;
  for (const line of output.split("\n")) {
    if (isMarkerLine(line)) {
      const m = SPAN.exec(line);
      if (!m) return `marker without a line span: ${line}`;
      const from = Number(m[1] ?? m[3]);
      if (from !== at + 1) return `${line} starts at ${from}, expected ${at + 1}`;
      at = Number(m[2] ?? m[1] ?? m[4] ?? m[3]);
      continue;
    }
    if (original[at] !== line) return `line ${at + 1} is not ${JSON.stringify(line)}`;
    at++;
  }
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
