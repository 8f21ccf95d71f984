import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";

describe("test-runner output", () => {
  it("keeps every failure block and the summary, and collapses passing tests", () => {
    const lines = [" RUN  v4.1.12 /work/app", ""];
    for (let i = 0; i < 80; i++) lines.push(`   ✓ orders > case ${i} behaves 3ms`);
    lines.push("   × orders > cancels an order and keeps the reason 5ms");
    lines.push("     → order 3: cannot go from open to canceled");
    for (let i = 80; i < 160; i++) lines.push(`   ✓ orders > case ${i} behaves 2ms`);
    lines.push("", " Test Files  1 failed (1)", "      Tests  1 failed | 160 passed (161)");
    const input = lines.join("\n");
    const r = compress(input, { hint: "vitest" });
    expect(r.kind).toBe("test");
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(r.output).toContain("   × orders > cancels an order and keeps the reason 5ms");
    expect(r.output).toContain("     → order 3: cannot go from open to canceled");
    expect(r.output).toContain("      Tests  1 failed | 160 passed (161)");
    expect(r.output).toContain("[caveman: lines 3-82 elided; passed (✓)]");
    // The engine never writes a summary of its own: no "passed" count that the runner did not print.
    expect(r.output).not.toMatch(/\b160 tests passed\b/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("folds node --test's second listing of its failures into markers naming the first", async () => {
    const item = corpusItem("test-node-test-spec");
    const r = compress(item.content, { hint: item.hint ?? "node --test" });
    expect(r.reason).toBeUndefined();
    for (const g of item.gold) expect(r.output).toContain(g.text);
    const { repeatedBlocks } = await import("./repeats.js");
    const lines = item.content.split("\n");
    const blocks = repeatedBlocks(lines);
    expect(blocks.length).toBeGreaterThan(0);
    // Each marker's claim holds: the elided lines equal the named earlier lines, trimmed.
    for (const b of blocks) {
      expect(r.output).toContain(
        `same text as lines ${b.source + 1}-${b.source + b.length} (indentation aside)`,
      );
      for (let k = 0; k < b.length; k++) expect(lines[b.from + k]!.trim()).toBe(lines[b.source + k]!.trim());
    }
    expect(fabricatedLines(item.content, r.output)).toEqual([]);
  });

  it("finds repeated blocks in 100,000 near-identical lines without quadratic work", async () => {
    const { repeatedBlocks } = await import("./repeats.js");
    const lines = Array.from(
      { length: 100_000 },
      (_, i) => `    at step (file:///a.mjs:${i % 7}:1) and more text here`,
    );
    const blocks = repeatedBlocks(lines);
    for (const b of blocks) {
      expect(b.source + b.length).toBeLessThanOrEqual(b.from);
      for (let k = 0; k < b.length; k++) expect(lines[b.from + k]!.trim()).toBe(lines[b.source + k]!.trim());
    }
  });

  it("keeps the failures of a real vitest run", () => {
    const item = corpusItem("test-vitest-verbose");
    const r = compress(item.content, { hint: item.hint ?? "vitest" });
    expect(r.reason).toBeUndefined();
    for (const g of item.gold) expect(r.output).toContain(g.text);
  });

  it("keeps the failure of a real unittest run", () => {
    const item = corpusItem("test-python-unittest");
    const r = compress(item.content, { hint: item.hint ?? "python3 -m unittest -v" });
    expect(r.kind).toBe("test");
    for (const g of item.gold) expect(r.output).toContain(g.text);
  });
});

describe("compiler diagnostics", () => {
  it("keeps every location and error code, collapsing code frames", () => {
    const lines: string[] = [];
    for (let i = 1; i <= 30; i++) {
      lines.push(
        `src/file${i}.ts:${i}:5 - error TS2322: Type 'string' is not assignable to type 'number'.`,
        "",
      );
      lines.push(`${i} const value${i}: number = "text that does not fit the declared type";`);
      lines.push("        ~~~~~~~~~~~~", "");
    }
    lines.push("Found 30 errors in 30 files.");
    const input = lines.join("\n");
    const r = compress(input, { hint: "tsc" });
    expect(r.kind).toBe("diagnostics");
    expect(r.ratio).toBeGreaterThan(0.1);
    for (let i = 1; i <= 30; i++) expect(r.output).toContain(`src/file${i}.ts:${i}:5 - error TS2322`);
    expect(r.output).toContain("Found 30 errors in 30 files.");
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("writes a much-repeated message twice, then keeps only each location and code", () => {
    const lines = Array.from(
      { length: 40 },
      (_, i) =>
        `src/f${i % 4}.js(${i + 1},${i + 3}): error TS7006: Parameter 'p${i}' implicitly has an 'any' type.`,
    );
    lines.push("src/other.js(1,1): error TS2304: Cannot find name 'x'.", "Found 41 errors in 5 files.");
    const input = lines.join("\n");
    const r = compress(input, { hint: "tsc" });
    expect(r.ratio).toBeGreaterThan(0.2);
    const out = r.output.split("\n");
    expect(out.slice(0, 2)).toEqual(lines.slice(0, 2));
    for (let i = 2; i < 40; i++) expect(out).toContain(`src/f${i % 4}.js(${i + 1},${i + 3}): error TS7006`);
    expect(out).toContain("src/other.js(1,1): error TS2304: Cannot find name 'x'.");
    expect(out).toContain(
      "[caveman: lines 3-40 elided; of the lines above, quoted names masked: Parameter '…' implicitly has an '…' type. x38]",
    );
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("keeps a dropped frame line whose marker would cost more, also when messages repeat", () => {
    // With repeated messages, "    ~~~" (2 tokens) became "[caveman: line 2 elided]" (10).
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) {
      lines.push(
        `src/file${i}.ts(${i + 1},5): error TS7006: Parameter 'arg${i}' implicitly has an 'any' type.`,
      );
      if (i % 10 === 0) lines.push("    ~~~");
    }
    lines.push("Found 30 errors.");
    const input = lines.join("\n");
    const r = compress(input, { hint: "tsc" });
    expect(r.kind).toBe("diagnostics");
    expect(r.reason).toBeUndefined();
    expect(r.output).not.toContain("[caveman: line 2 elided");
    expect(r.output.split("\n")[1]).toBe("    ~~~");
  });

  it("never rewrites a real tsc run: every planted error survives", () => {
    const item = corpusItem("diagnostics-tsc-planted");
    const r = compress(item.content, { hint: item.hint ?? "tsc" });
    for (const g of item.gold) expect(r.output).toContain(g.text);
    expect(r.output).not.toMatch(/no errors/i);
  });

  it("keeps every location, rule and message line of real biome lint output, and its summary", () => {
    const item = corpusItem("diagnostics-biome-lint-js-yaml");
    const r = compress(item.content, { hint: item.hint ?? "biome lint" });
    expect(r.ratio).toBeGreaterThan(0.5);
    const out = new Set(r.output.split("\n"));
    const headers = item.content.split("\n").filter((l) => /^\S+:\d+:\d+ lint\//.test(l));
    expect(headers.length).toBeGreaterThan(10);
    for (const h of headers) expect(out.has(h), h).toBe(true);
    expect(r.output).toContain("Found 24 errors.");
  });
});
