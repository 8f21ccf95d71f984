// The fidelity rules over the real corpus (corpus/real: real tools on real projects, recorded by
// corpus/real/record.mjs), graded with no hint as a hook or proxy meets it: no gold answer lost,
// no fabricated line, deterministic, idempotent, byte-exact retrieve. Reductions and the issue's
// targets are reported by `pnpm bench`, not asserted.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { corpusDir, loadCorpus } from "../bench/corpus.mjs";
import { gradeItem } from "../bench/graders.mjs";
import * as engine from "../src/index.js";

const real = loadCorpus(join(corpusDir, "real"));

describe("real corpus", () => {
  it("holds 150+ items, every content kind but text at least 6 times, each with its command and gold", () => {
    expect(real.length).toBeGreaterThanOrEqual(150);
    const perKind = new Map<string, number>();
    for (const item of real) perKind.set(item.kind, (perKind.get(item.kind) ?? 0) + 1);
    const thin = engine.CONTENT_KINDS.filter((k) => k !== "text" && (perKind.get(k) ?? 0) < 6);
    expect(thin).toEqual([]);
    const bad = real.filter(
      (item) => item.gold.length === 0 || item.gold.some((g) => !item.content.includes(g.text)),
    );
    expect(bad.map((item) => item.id)).toEqual([]);
  });
});

describe.each(real.map((item) => [item.id, item] as const))("%s, no hint", (_id, item) => {
  it("keeps every gold answer, fabricates nothing, and is deterministic, idempotent and recoverable", () => {
    const g = gradeItem(engine, { ...item, hint: "" }, { baselines: false });
    expect(g.golds.filter((x) => x.status === "lost").map((x) => x.text)).toEqual([]);
    expect(g.fabricated.sample).toEqual([]);
    expect(g.deterministic).toBe(true);
    expect(g.idempotent).toBe(true);
    expect(g.retrieveExact && g.passThroughIsExact).toBe(true);
  });
});
