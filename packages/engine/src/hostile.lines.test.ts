// Hostile inputs found in review: single hostile lines (terminal redraws, diffstat look-alikes,
// prose, code) and grep hits whose file names hold dashes and digits are judged without cutting
// or misreading them.
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { detect } from "./detect.js";
import { lines } from "./hostile.test-helpers.js";
import { linesAreHonest } from "./lines.js";
import { narrow } from "./narrow.js";

describe("terminal redraws on hostile lines", () => {
  it("judges a line with a 400,000-character progress-like tail without cutting it", () => {
    const earlier = `${"5 ".repeat(200_000)}x`;
    const input = `${earlier}\r${"y".repeat(earlier.length + 5)}\n${"more\n".repeat(50)}`;
    // Quadratic (a `...+$` regex retried from every position) ran past the test's time limit.
    const r = compress(input);
    // Not a redraw of the same line: kept whole, nothing dropped.
    expect(r.output).toContain(earlier);
  });
});

describe("diffstat detection on hostile lines", () => {
  it("reads a line of 200,000 spaces between two words as no file line", () => {
    // A lazy path before ` +\|` retried every split of the spaces: quadratic, past the time limit.
    const line = ` a${" ".repeat(200_000)}b`;
    expect(detect([line, ...Array.from({ length: 20 }, () => line)].join("\n")).kind).not.toBe("diff");
  });
});

describe("prose rules on hostile lines", () => {
  const para = "The quick brown fox is basically jumping over the lazy dog and it does not stop here now.";

  it("handles 200,000-character words, and floods of < [ and backticks, in linear time", async () => {
    const { compressProse } = await import("./kinds/prose/prose.js");
    for (const flood of [
      "y".repeat(200_000),
      "<".repeat(200_000),
      "[".repeat(200_000),
      "[a](".repeat(50_000),
    ]) {
      const text = `${para}\n\n${flood} the end\n`;
      const out = compressProse(text, {});
      const output = typeof out === "string" ? text : out.output;
      expect(output).toContain(flood);
      expect(output).toContain("not stop");
    }
  });

  it("leaves a line holding the private-use mask characters untouched", async () => {
    const { compressProse } = await import("./kinds/prose/prose.js");
    const line = "The value \uE0000\uE001 is really the answer";
    const out = compressProse(`${para}\n${line}`, {});
    expect(typeof out === "string" ? "" : out.output.split("\n")[1]).toBe(line);
  });
});

describe("code scanning on hostile lines", () => {
  const fn = "function g(a) {\n  return a + 1;\n}\n".repeat(200);

  it("gives up on regex literals after a bounded number of failed attempts per line", () => {
    const input = `const x = [${"/[".repeat(100_000)}];\n${fn}`;
    const r = compress(input, { hint: "code" });
    expect(r.output).toBe(input);
    // The outline gives up; the line fold then cannot shrink a text that is one huge line.
    expect(["parse_error", "not_smaller"]).toContain(r.reason);
  });

  it("outlines 100,000-deep nested braces without rescanning the stack", async () => {
    const { scanBraces } = await import("./kinds/code/scan.js");
    const depth = 100_000;
    const lines = [`${"{".repeat(depth)}`, `${"}".repeat(depth)}`];
    const pairs = scanBraces(lines, "javascript")!;
    expect(pairs).toHaveLength(depth);
    expect(pairs[0]!.depth).toBe(depth - 1);
    expect(pairs.at(-1)!.depth).toBe(0);
  });

  it("still reads real regex literals holding brackets and slashes", async () => {
    const { scanBraces } = await import("./kinds/code/scan.js");
    expect(
      scanBraces(["const re = /[{(]+\\/x/g;", "function f() {", "  return re;", "}"], "javascript"),
    ).toEqual([{ open: 1, close: 3, depth: 0 }]);
  });
});

describe("grep hits with dashes and digits in file names", () => {
  it("files dated names under their own names and counts context lines apart from hits", () => {
    // One file per input: a marker over several files' hits names no file (a region marker).
    // Context lines fold whatever hit they sit by: all 12 are counted, apart from the 9 hits.
    for (const day of ["2024-01-05", "2024-02-11", "2024-03-20"]) {
      const out: string[] = [];
      const file = `migrations/${day}-init.sql`;
      for (let n = 1; n <= 12; n++) {
        out.push(`${file}-${n * 10 - 1}--- context before ${n}`);
        out.push(`${file}:${n * 10}:CREATE TABLE t${n} (id int);`);
      }
      out.push("--");
      const r = compress(out.join("\n"), { hint: "grep -rn -B1", floorTokens: 0 });
      expect(r.reason).toBeUndefined();
      expect(r.output).toContain(
        `migrations/${day}-init.sql x9 (line 40..120; 12 hits in file); 12 context lines`,
      );
      expect(r.output).not.toContain("migrations/2024 x");
    }
  });

  it("finishes the held-out adversarial inputs that once took 4 to 65 seconds", () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const letters = () =>
      Array.from({ length: 80_000 }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join("");
    const fns = (n: number) =>
      lines(
        n,
        (i) => `export function handler${i}(req) { if (req.x) { return req.y + ${i}; } return null; }`,
      );
    // `[` x250,000 (markdown link scan), random letters (prose sentence scan), one-line functions
    // (code outline nesting check) were the quadratic ones.
    for (const input of [
      "[".repeat(250_000),
      [letters(), letters(), letters()].join("\n"),
      fns(80_000),
      fns(40_000),
    ]) {
      const r = compress(input);
      // Passed through, or folded as lines (the one-line functions): never rewritten.
      expect(linesAreHonest(input, r.output)).toBe(true);
    }
  });

  it("narrows 150,000 units with regex-shaped queries as plain words", () => {
    const input = lines(150_000, (i) => `2026-11-02T09:00:00Z INFO aaaaaaaa job ${i} done`);
    for (const q of ["(a+)+$", ".*.*.*x"]) {
      const v = narrow(input, q);
      expect(v.full).toBe(false);
      expect(v.unitsTotal).toBe(150_000);
    }
  });
});
