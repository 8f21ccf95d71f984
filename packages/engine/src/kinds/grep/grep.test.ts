import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";
import { isMarkerLine } from "../../markers.js";

describe("grep compression", () => {
  it("keeps every file name and the first hits of each file, one marker counting the rest", () => {
    const lines: string[] = [];
    for (let f = 0; f < 6; f++)
      for (let l = 1; l <= 40; l++)
        lines.push(`src/mod${f}/file${f}.ts:${l * 3}:  const v${l} = process.env.X${l};`);
    const input = lines.join("\n");
    const r = compress(input, { hint: "grep -rn" });
    expect(r.kind).toBe("grep");
    expect(r.ratio).toBeGreaterThan(0.8);
    for (let f = 0; f < 6; f++) {
      expect(r.output).toContain(`src/mod${f}/file${f}.ts:3:`);
    }
    // One region marker stands for the other hits of all six files.
    const markers = r.output.split("\n").filter(isMarkerLine);
    // A marker over a run of hits only names its line span: one hit per line.
    const count = (m: string) => {
      const region = /(\d+) of lines \d+-\d+ elided/.exec(m);
      if (region) return Number(region[1]);
      const span = /lines (\d+)-(\d+) elided/.exec(m);
      return span ? Number(span[2]) - Number(span[1]) + 1 : Number(/(\d+) hits? elided/.exec(m)![1]);
    };
    expect(markers.reduce((n, m) => n + count(m), 0)).toBe(6 * 37);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("keeps hits that match the query or report errors", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `lib/a.js:${i + 1}:  call(${i})`);
    lines[70] = "lib/a.js:71:  throw new Error('boom')";
    lines[50] = "lib/a.js:51:  call(needle)";
    const r = compress(lines.join("\n"), { query: "needle" });
    expect(r.output).toContain("lib/a.js:71:  throw new Error('boom')");
    expect(r.output).toContain("lib/a.js:51:  call(needle)");
  });

  it("compresses real grep output over node_modules", () => {
    const item = corpusItem("grep-typescript-todo");
    const r = compress(item.content, { hint: item.hint ?? "grep" });
    expect(r.ratio).toBeGreaterThan(0.8);
    for (const g of item.gold) expect(r.output).toContain(g.text);
  });

  it("folds a path list by group and keeps a name unique in its group", () => {
    const paths: string[] = [];
    for (let d = 0; d < 6; d++) for (let f = 0; f < 30; f++) paths.push(`./src/mod${d}/file${f}.ts`);
    paths.splice(100, 0, "./src/mod3/.env.production");
    const input = paths.join("\n");
    const r = compress(input);
    expect(r.kind).toBe("grep");
    expect(r.ratio).toBeGreaterThan(0.5);
    expect(r.output).toContain("./src/mod3/.env.production");
    expect(r.output).toContain("./src/mod0/file0.ts");
    expect(r.output).toMatch(/under src\/ depth 3 \.ts/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });
});

describe("path list facts", () => {
  it("count the groups a marker leaves unnamed in good English", () => {
    const lines: string[] = [];
    for (const d of ["src", "lib", "test"])
      for (let i = 0; i < 30; i++) lines.push(`${d}/mod${i % 3}/item${i}.ts`);
    const r = compress(lines.join("\n"), { floorTokens: 0 });
    expect(r.kind).toBe("grep");
    expect(r.output).toContain("under src/ depth 3 .ts x27, under lib/ depth 3 .ts x27, 1 more group]");
  });
});
