// Runs the fidelity graders of bench/graders.mjs over the whole benchmark corpus against the
// engine's source: no gold answer is lost, no output line is fabricated, compress is
// deterministic and idempotent, the retrieve path returns the stored bytes, and JSON items
// survive the TOON round trip. Reduction targets are reported by `pnpm bench`, not asserted.
import { describe, expect, it } from "vitest";
import { type CorpusItem, loadCorpus } from "../bench/corpus.mjs";
import { gradeItem, type ItemGrade } from "../bench/graders.mjs";
import * as engine from "../src/index.js";

const corpus = loadCorpus();
// "text" is what nothing else fits: no item is written to be text.
const REQUIRED_KINDS = engine.CONTENT_KINDS.filter((k) => k !== "text");
const cache = new Map<string, ItemGrade>();
function gradeOf(item: CorpusItem): ItemGrade {
  let grade = cache.get(item.id);
  if (!grade) {
    grade = gradeItem(engine, item, { baselines: false });
    cache.set(item.id, grade);
  }
  return grade;
}

describe("benchmark corpus", () => {
  it("holds at least 40 items and every content kind at least twice", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    const perKind = new Map<string, number>();
    for (const item of corpus) perKind.set(item.kind, (perKind.get(item.kind) ?? 0) + 1);
    const thin = REQUIRED_KINDS.filter((k) => (perKind.get(k) ?? 0) < 2);
    expect(thin).toEqual([]);
  });

  it("has gold answers that occur verbatim in their items", () => {
    const missing = corpus.flatMap((item) =>
      item.gold.filter((g) => !item.content.includes(g.text)).map((g) => `${item.id}: ${g.text}`),
    );
    expect(missing).toEqual([]);
    expect(corpus.every((item) => item.gold.length > 0)).toBe(true);
  });

  it("names each item file after its id and gives each a producing tool as hint", () => {
    const ids = corpus.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    const misnamed = corpus.filter(
      (item) => !item.file.startsWith(`items/${item.id}.`) || item.hint.trim() === "",
    );
    expect(misnamed.map((item) => item.id)).toEqual([]);
    const kinds = new Set<string>(engine.CONTENT_KINDS);
    expect(corpus.filter((item) => !kinds.has(item.kind)).map((item) => item.id)).toEqual([]);
  });

  it("stays under the 6 MB budget", () => {
    const bytes = corpus.reduce((n, item) => n + item.bytes, 0);
    expect(bytes).toBeLessThan(6 * 1024 * 1024);
  });
});

describe.each(corpus.map((item) => [item.id, item] as const))("%s", (_id, item) => {
  it("loses no gold answer (each is visible or one retrieve away)", () => {
    const lost = gradeOf(item)
      .golds.filter((g) => g.status === "lost")
      .map((g) => g.text);
    expect(lost).toEqual([]);
  });

  it("fabricates no output line", () => {
    const { count, sample } = gradeOf(item).fabricated;
    expect(sample).toEqual([]);
    expect(count).toBe(0);
  });

  it("gives byte-identical output on a second call", () => {
    expect(gradeOf(item).deterministic).toBe(true);
  });

  it("leaves its own output unchanged when compressed again", () => {
    expect(gradeOf(item).idempotent).toBe(true);
  });

  it("returns the exact original bytes through the retrieve path", () => {
    const grade = gradeOf(item);
    expect(grade.retrieveExact).toBe(true);
    expect(grade.passThroughIsExact).toBe(true);
  });
});

const jsonItems = corpus.filter((item) => item.kind === "json").map((item) => [item.id, item] as const);
describe.each(jsonItems)("%s (JSON)", (_id, item) => {
  it("survives the TOON round trip", () => {
    expect(gradeOf(item).toonRoundTrip).toBe(true);
  });
});

describe("whole corpus", () => {
  it("loses zero gold answers in total", () => {
    const lost = corpus.reduce((n, item) => n + gradeOf(item).lost, 0);
    expect(lost).toBe(0);
  });
});
