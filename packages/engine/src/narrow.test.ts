import { describe, expect, it } from "vitest";
import { corpusItem } from "./corpus.test-util.js";
import { isMarkerLine } from "./markers.js";
import { narrow } from "./narrow.js";

const LOG = Array.from({ length: 300 }, (_, i) =>
  i === 200
    ? "2026-11-30 10:03:20 ERROR payment declined for order 4821\n    at charge (src/pay.ts:10:3)"
    : `2026-11-30 10:00:${String(i % 60).padStart(2, "0")} INFO heartbeat ${i}`,
).join("\n");

describe("narrow", () => {
  it("returns exactly the requested lines for lines:a-b", () => {
    const v = narrow(LOG, "lines:3-5");
    expect(v).toMatchObject({ full: false, unitsShown: 3 });
    expect(v.output).toBe(LOG.split("\n").slice(2, 5).join("\n"));
    expect(narrow(LOG, "lines:1-999999999").output).toBe(LOG);
  });

  it("narrows a JSON array of 200,000 records to the matching one", () => {
    // The largest-container walk spread every child into one push() call, which overflows the
    // stack past ~120,000 arguments: the whole 5 MB original came back.
    const records = Array.from({ length: 200_000 }, (_, i) => ({
      id: i,
      name: i === 777 ? "needle" : "hay",
    }));
    const v = narrow(JSON.stringify(records), "needle");
    expect(v.note).toBeUndefined();
    expect(v.full).toBe(false);
    expect(v.unitsTotal).toBe(200_000);
    expect(v.output).toContain('{"id":777,"name":"needle"}');
  });

  it("finds a query that only a header holds (a diff's file line, its commit preamble)", () => {
    // Header units were never ranked: "f3.ts" or the author's name got "none matched the query".
    const d = [
      "commit 0123456789abcdef",
      "Author: Zelda Quux <z@example.com>",
      "",
      "    Fix the frobnicator",
      "",
    ];
    for (let f = 0; f < 5; f++) {
      d.push(`diff --git a/f${f}.ts b/f${f}.ts`, "index 1..2 100644", `--- a/f${f}.ts`, `+++ b/f${f}.ts`);
      for (let h = 0; h < 4; h++)
        d.push(`@@ -${h * 10 + 1},3 +${h * 10 + 1},3 @@`, " ctx", `-old ${f} ${h}`, `+new ${f} ${h}`, " ctx");
    }
    const text = d.join("\n");
    const zelda = narrow(text, "Zelda", { hint: "diff" });
    expect(zelda.note).toBeUndefined();
    expect(zelda.output).toContain("Author: Zelda Quux <z@example.com>");
    const file = narrow(text, "f3.ts", { hint: "diff" });
    expect(file.note).toBeUndefined();
    expect(file.output).toContain("diff --git a/f3.ts b/f3.ts");
    expect(narrow(text, "f3", { hint: "diff" }).output).not.toContain("diff --git a/f2.ts b/f2.ts");
  });

  it("does not claim nothing matched a query that holds no word to rank by", () => {
    // "->" is in the text, but ranking reads words only: the marker said "none matched the query".
    const text = Array.from({ length: 50 }, (_, i) => (i === 20 ? "a -> b" : `line ${i}`)).join("\n");
    const v = narrow(text, "->");
    expect(v.output).not.toContain("none matched");
    expect(v.output).toContain("the query has no word to match");
  });

  it("returns the full original and says why for an out-of-range line query", () => {
    const v = narrow(LOG, "lines:5000-5010");
    expect(v).toMatchObject({ full: true, output: LOG });
    expect(v.note).toMatch(/outside lines 1-301/);
  });

  it("shows whole matching units in original order with gap markers", () => {
    const v = narrow(LOG, "payment declined");
    expect(v.full).toBe(false);
    expect(v.output).toContain("ERROR payment declined for order 4821\n    at charge (src/pay.ts:10:3)");
    const markers = v.output.split("\n").filter(isMarkerLine);
    expect(markers.length).toBeGreaterThan(0);
    expect(markers[0]).toMatch(/^\[caveman: (\d+ units skipped \(lines 1-\d+\)|lines 1-\d+ skipped)\]$/);
  });

  it("caps the view at the limit, and falls back to 20 for a nonsense limit", () => {
    expect(narrow(LOG, "heartbeat", { limit: 5 }).unitsShown).toBe(5);
    expect(narrow(LOG, "heartbeat", { limit: Number.NaN }).unitsShown).toBe(20);
    expect(narrow(LOG, "heartbeat", { limit: -3 }).unitsShown).toBe(1);
  });

  it("says so when nothing matches, without inventing content", () => {
    const v = narrow(LOG, "zebra");
    expect(v).toMatchObject({ full: false, unitsShown: 0, note: "no unit matched the query" });
    expect(isMarkerLine(v.output)).toBe(true);
  });

  it("returns the exact bytes a JSON pointer names", () => {
    const json = JSON.stringify(
      { items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}` })) },
      null,
      2,
    );
    const v = narrow(json, "/items/42");
    expect(v.full).toBe(false);
    expect(JSON.parse(v.output)).toEqual({ id: 42, name: "n42" });
    expect(json).toContain(v.output);
    expect(narrow(json, "/items/500")).toMatchObject({ full: true, output: json });
  });

  it("shows whole JSON records for a text query", () => {
    const json = JSON.stringify(
      Array.from({ length: 50 }, (_, i) => ({ id: i, name: i === 31 ? "needle" : `n${i}` })),
      null,
      2,
    );
    const v = narrow(json, "needle");
    expect(v.output).toContain('"name": "needle"');
    expect(v.output).toContain('"id": 31');
  });

  it("returns the full original for content that cannot be split", () => {
    const v = narrow("one single line of text", "text");
    expect(v).toMatchObject({ full: true, output: "one single line of text" });
  });

  it("finds a real failing test in vitest output", () => {
    const item = corpusItem("test-vitest-verbose");
    const v = narrow(item.content, "cannot go from open to canceled", { hint: "vitest" });
    expect(v.output).toContain("Error: order 3: cannot go from open to canceled");
  });

  it("never throws on hostile input", () => {
    for (const [text, q] of [
      ["\u0000".repeat(100), "\u0000"],
      ["[".repeat(10_000), "/0/0"],
      ["a\nb", "lines:-1"],
      ["x", ""],
    ] as const) {
      const v = narrow(text, q);
      expect(typeof v.output).toBe("string");
    }
  });

  it("takes the span of a marker as a query: lines 12-80, L12-80, or a run or region marker pasted whole", () => {
    const want = LOG.split("\n").slice(11, 80).join("\n");
    for (const q of [
      "lines 12-80",
      "L12-80",
      "lines:12-80",
      "[caveman: lines 12-80 elided; INFO like line 4 x69]",
      "[caveman: 61 of lines 12-80 elided; WARN like line 40 x3; INFO x58; retrieve ccr_ab]",
    ])
      expect(narrow(LOG, q).output, q).toBe(want);
    expect(narrow(LOG, "[caveman: 3 hits elided (lines 12-14); a.ts x3]").output).toBe(
      LOG.split("\n").slice(11, 14).join("\n"),
    );
  });

  it("narrows code to windows of lines around the matches, never the whole file", () => {
    const code = Array.from({ length: 400 }, (_, i) => `     ${i + 1}\t  const v${i} = compute(${i});`);
    code[250] = "   251\t  const needle = readBlockMapping(state);";
    const v = narrow(code.join("\n"), "readBlockMapping", { hint: "code" });
    expect(v.full).toBe(false);
    const out = v.output.split("\n");
    expect(out).toContain(code[250]);
    expect(out).toContain(code[247]);
    expect(out).toContain(code[253]);
    expect(out.length).toBeLessThan(12);
    expect(out[0]).toBe("[caveman: lines 1-247 skipped]");
  });

  it("narrows one long line to the matching slices", () => {
    const line = `${"abc ".repeat(5000)}needle${" xyz".repeat(5000)}`;
    const v = narrow(line, "needle");
    expect(v.full).toBe(false);
    expect(v.output).toContain("needle");
    expect(v.output.length).toBeLessThan(line.length / 10);
    expect(v.output).toMatch(/^\[caveman: \d+ characters skipped \(characters 1-\d+\)\]/);
  });
});
