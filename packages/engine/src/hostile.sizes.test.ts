// Hostile inputs found in review. Each size here took from seconds to minutes (or threw) while a
// step was quadratic or recursive; the tests check behaviour (no throw, fail closed or shrink
// honestly), and the sizes make a regression to quadratic time exceed the test timeout.
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { detect } from "./detect.js";
import { lines } from "./hostile.test-helpers.js";
import { templateOf } from "./kinds/log/template.js";
import { linesAreHonest } from "./lines.js";
import { isMarkerLine } from "./markers.js";
import { narrow } from "./narrow.js";
import { countTokens, measureTokens } from "./tokens.js";

describe("hostile sizes stay linear and fail closed", () => {
  it("shortens 100,000 repeated tsc diagnostics at distinct locations and checks them honestly", () => {
    // Each shortened line is a prefix found in order; the check used to search from the start each time.
    const input = lines(100_000, (i) => `src/a.ts(${i + 1},1): error TS2322: Type 'x' is not assignable.`);
    const r = compress(input, { hint: "tsc" });
    expect(r.reason).toBeUndefined();
    expect(r.output).toContain("src/a.ts(100000,1): error TS2322");
    expect(linesAreHonest(input, r.output)).toBe(true);
  });

  it("rejects a line that is not in the input even after many in-order slices", () => {
    const input = lines(1000, (i) => `line ${i} text`);
    const output = `${lines(1000, (i) => `line ${i} te`)}\ninvented line`;
    expect(linesAreHonest(input, output)).toBe(false);
  });

  it("folds 200,000 grep hits in one file with its hit count and line range", () => {
    // Math.min(...lines) overflowed the stack here and the input passed through as internal_error.
    const input = lines(200_000, (i) => `src/a.ts:${i + 1}:const x = ${i};`);
    const r = compress(input, { hint: "grep" });
    expect(r.reason).toBeUndefined();
    expect(r.output).toContain("src/a.ts x199997 (line 4..200000; 200000 hits in file)");
  });

  it("masks a 120,000-character digit-free hex run in one pass", () => {
    const run = "abcdef".repeat(20_000);
    expect(templateOf(`id ${run} x1`)).toBe(`id ${run} x#`);
    expect(templateOf("deadbeef12 cafe-12 zz9")).toBe("# cafe-# zz#");
    const log = `2026-01-01T00:00:00Z INFO ${run}\n${lines(400, (i) => `2026-01-01T00:00:0${i % 10}Z INFO tick ${i}`)}`;
    expect(compress(log, { hint: "log" }).kind).toBe("log");
  });

  it("counts a 65,000-letter word and a 65,000-space run quickly, labelled as estimates", () => {
    for (const text of ["a".repeat(65_000), " ".repeat(65_000), "!".repeat(65_000), "語".repeat(65_000)]) {
      const m = measureTokens(text);
      expect(m.estimated).toBe(true);
      expect(m.tokens).toBeGreaterThan(0);
    }
    // Ordinary text (and compact JSON, which has no spaces) is still counted exactly.
    expect(measureTokens(JSON.stringify({ a: [1, 2, 3], b: "x y" }).repeat(500)).estimated).toBe(false);
    expect(countTokens("hello world")).toBe(2);
  });

  it("reads a line of 150,000 '::' or '==' pairs once, in detection, test folding and narrow", () => {
    // The pytest pattern `::\S+ PASSED` restarted at every "::" and ran to the end of the line:
    // 100,000 pairs took 38 s to compress and 25 s to narrow.
    // Likewise `={3,} FAILURES` restarted at every "=" of a long run of them.
    for (const input of [":1:".repeat(150_000), `tests/a.py${"::t".repeat(150_000)}`, "==".repeat(150_000)]) {
      expect(compress(input).output).toBe(input);
      expect(compress(input, { hint: "pytest" }).output).toBe(input);
      expect(narrow(input, "(a+)+$").full).toBe(false);
    }
  });

  it("detects a flood of unterminated OSC escapes without rescanning", () => {
    expect(detect(`${"\u001b]".repeat(100_000)}\nplain`).kind).toBe("text");
  });

  it("passes 10,000-deep JSON through unchanged and narrows it without throwing", () => {
    for (const input of [
      "[".repeat(10_000) + "]".repeat(10_000),
      `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`,
    ]) {
      const r = compress(input);
      expect(r.output).toBe(input);
      expect(r.ratio).toBe(0);
      const v = narrow(input, "/0/0/0");
      expect(typeof v.output).toBe("string");
    }
  });

  it("keeps CRLF line endings, NUL bytes and lone surrogates byte-exact in kept lines", () => {
    const input = lines(3000, (i) => `2026-01-01T00:00:00Z INFO req\u0000 ${i} \ud800 took ${i % 50}ms\r`);
    const r = compress(input);
    expect(r.reason).toBeUndefined();
    const original = new Set(input.split("\n"));
    for (const line of r.output.split("\n")) expect(original.has(line) || isMarkerLine(line)).toBe(true);
  });
});
