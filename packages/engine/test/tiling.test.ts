// Kept lines and marker spans tile the original: for every line-based result over both corpora,
// each output line is the next input line or a marker whose `lines a-b` starts right after the
// last line accounted for, and together they end at the input's last line. A region marker
// (`N of lines a-b elided`) is followed by the span's other lines, in order, before the next
// marker or line after b. So no line is dropped without a marker saying where, and no marker's
// span or count is off by one.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir, loadCorpus } from "../bench/corpus.mjs";
import { compress } from "../src/index.js";
import { NOT_TILED, untiled } from "./tiling.util.js";

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
