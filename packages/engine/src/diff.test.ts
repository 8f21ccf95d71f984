import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { corpusItem, fabricatedLines } from "./corpus.test-util.js";
import { narrow } from "./narrow.js";

function fileDiff(name: string, hunks: number): string[] {
  const out = [
    `diff --git a/${name} b/${name}`,
    "index 1111111..2222222 100644",
    `--- a/${name}`,
    `+++ b/${name}`,
  ];
  for (let h = 0; h < hunks; h++) {
    out.push(`@@ -${h * 40 + 1},9 +${h * 40 + 1},9 @@ function f${h}() {`);
    for (let c = 0; c < 4; c++) out.push(`   const context${h}_${c} = compute(${c}, "unchanged text here");`);
    out.push(`-  return old${h};`, `+  return fresh${h};`);
    for (let c = 0; c < 3; c++) out.push(`   const after${h}_${c} = compute(${c}, "unchanged text here");`);
  }
  return out;
}

describe("diff compression", () => {
  it("keeps every header and +/- line and collapses only unchanged context", () => {
    const lines = [...fileDiff("src/a.ts", 6), ...fileDiff("src/b.ts", 6)];
    const input = lines.join("\n");
    const r = compress(input, { hint: "git diff" });
    expect(r.kind).toBe("diff");
    expect(r.ratio).toBeGreaterThan(0.5);
    for (const line of lines) {
      if (/^(diff --git|index |--- |\+\+\+ |@@|[-+])/.test(line))
        expect(r.output.split("\n")).toContain(line);
    }
    expect(r.output).toContain("unchanged context");
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("folds a lock file to per-file stats after its header", () => {
    const lock = [
      "diff --git a/pnpm-lock.yaml b/pnpm-lock.yaml",
      "--- a/pnpm-lock.yaml",
      "+++ b/pnpm-lock.yaml",
      "@@ -1,300 +1,300 @@",
    ];
    for (let i = 0; i < 150; i++) lock.push(`-  /pkg-${i}@1.0.${i}:`, `+  /pkg-${i}@1.1.${i}:`);
    const input = [...lock, ...fileDiff("src/c.ts", 2)].join("\n");
    const r = compress(input);
    expect(r.output).toContain("diff --git a/pnpm-lock.yaml b/pnpm-lock.yaml");
    expect(r.output).toContain("pnpm-lock.yaml +150 -150, generated or lock file");
    expect(r.output).toContain("+  return fresh1;");
  });

  it("folds a real vendored upgrade to per-file stats, and a query brings the lines back", () => {
    const item = corpusItem("diff-git-show-argparse");
    const r = compress(item.content, { hint: item.hint ?? "git show" });
    expect(r.ratio).toBeGreaterThan(0.5);
    expect(r.output).toMatch(/vendor\/argparse\/CHANGELOG\.md \+\d+ -\d+, generated or lock file/);
    for (const g of item.gold) {
      const shown =
        r.output.includes(g.text) || narrow(item.content, g.query ?? g.text).output.includes(g.text);
      expect(shown, g.text).toBe(true);
    }
  });
});
