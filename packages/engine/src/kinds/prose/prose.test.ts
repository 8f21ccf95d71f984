import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";

describe("prose", () => {
  it("folds a long changelog by section: the latest entries whole, then headings and first lines", () => {
    const lines: string[] = ["# Changelog", ""];
    for (let v = 40; v > 0; v--) {
      lines.push(`## 1.${v}.0 (2026-01-${String((v % 28) + 1).padStart(2, "0")})`, "");
      for (let k = 0; k < 5; k++)
        lines.push(`- Fix bug number ${v * 10 + k} in the parser when reading input`);
      lines.push("");
    }
    const input = lines.join("\n");
    const r = compress(input, { hint: "CHANGELOG.md", query: "number 52" });
    expect(r.kind).toBe("prose");
    expect(r.ratio).toBeGreaterThan(0.3);
    for (let v = 40; v > 0; v--) expect(r.output).toMatch(new RegExp(`^## 1\\.${v}\\.0 `, "m"));
    // The newest release whole; an old one keeps its first lines; the query's line is kept.
    expect(r.output).toContain("Fix bug number 404 in");
    expect(r.output).not.toContain("Fix bug number 103 in");
    expect(r.output).toContain("Fix bug number 52 in");
    expect(r.output).toMatch(/\[caveman: lines \d+-\d+ elided\]/);
    expect(compress(r.output, { hint: "CHANGELOG.md" }).output).toBe(r.output);
  });

  it("drops articles, filler and hedges but keeps negations, numbers, code, URLs and headings", () => {
    const para =
      "Please note that the server is basically not able to handle more than 20 requests per second, " +
      "and it should never be run with `--unsafe` except in tests. I think the docs at https://example.com/a/b " +
      "are really just a bit out of date, so you should probably read the source in src/server.ts instead.";
    const input = ["# The Server", "", para, "", "```js", "const the = a;", "```", "", para].join("\n");
    const r = compress(input, { hint: "prose", floorTokens: 10 });
    expect(r.kind).toBe("prose");
    expect(r.output).toContain("# The Server");
    expect(r.output).toContain("const the = a;");
    for (const kept of [
      "not",
      "never",
      "except",
      "20",
      "`--unsafe`",
      "https://example.com/a/b",
      "src/server.ts",
    ])
      expect(r.output).toContain(kept);
    expect(r.output).not.toMatch(/\b(basically|really|probably|Please)\b/);
    expect(r.ratio).toBeGreaterThan(0.2);
  });
});
