// The fidelity rules over the broad corpus (corpus/broad: 22 log families, every diff and grep
// form, columnar CLI output, test runners, linters), graded as a hook or proxy meets it, with no
// hint: no gold answer lost, no fabricated line, deterministic, idempotent, byte-exact retrieve.
// Reductions and marker economics are reported by `pnpm bench`, not asserted.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir, loadCorpus } from "../bench/corpus.mjs";
import { gradeItem } from "../bench/graders.mjs";
import * as engine from "../src/index.js";

const broad = loadCorpus(join(corpusDir, "broad"));

describe("broad corpus", () => {
  it("covers at least 15 log families and the diff, grep and table forms", () => {
    const families = broad.map((item) => item.family ?? "");
    expect(families.filter((f) => f.startsWith("log:")).length).toBeGreaterThanOrEqual(15);
    for (const prefix of ["diff:", "grep:", "table:", "test:"])
      expect(families.filter((f) => f.startsWith(prefix)).length).toBeGreaterThanOrEqual(2);
  });
});

describe.each(broad.map((item) => [item.id, item] as const))("%s, no hint", (_id, item) => {
  it("keeps every gold answer, fabricates nothing, and is deterministic, idempotent and recoverable", () => {
    // An empty hint is no hint: compress and narrow read only a non-empty one.
    const g = gradeItem(engine, { ...item, hint: "" }, { baselines: false });
    expect(g.golds.filter((x) => x.status === "lost").map((x) => x.text)).toEqual([]);
    expect(g.fabricated.sample).toEqual([]);
    expect(g.deterministic).toBe(true);
    expect(g.idempotent).toBe(true);
    expect(g.retrieveExact && g.passThroughIsExact).toBe(true);
  });
});
