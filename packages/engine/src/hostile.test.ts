// Hostile inputs found in review. Each size here took from seconds to minutes (or threw) while a
// step was quadratic or recursive; the tests check behaviour (no throw, fail closed or shrink
// honestly), and the sizes make a regression to quadratic time exceed the test timeout.
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { detect } from "./detect.js";
import { linesAreHonest } from "./lines.js";
import { templateOf } from "./log/template.js";
import { isMarkerLine } from "./markers.js";
import { narrow } from "./narrow.js";
import { countTokens, measureTokens } from "./tokens.js";

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join("\n");

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

describe("JSON that a parse would change passes through", () => {
  const records = (id: (i: number) => string) =>
    `[${Array.from({ length: 60 }, (_, i) => `{"id":${id(i)},"status":"ok","v":${i % 5}}`).join(",\n")}]`;

  it("keeps 19-digit ids that a double would round (no fabricated ids in markers)", () => {
    const input = records((i) => `12345678901234567${800 + i}`);
    const r = compress(input);
    expect(r.reason).toBe("parse_error");
    expect(r.output).toBe(input);
  });

  it("passes through numbers that overflow, underflow or are minus zero", () => {
    for (const odd of ["1e400", "1e-400", "-0", "-0.0"]) {
      const input = records((i) => (i === 30 ? odd : String(i)));
      expect(compress(input).reason, odd).toBe("parse_error");
    }
  });

  it("passes through an object with a repeated key (a parse keeps only the last)", () => {
    const input = records((i) => String(i)).replace('{"id":30,', '{"id":30,"id":99,');
    expect(compress(input).reason).toBe("parse_error");
  });

  it("still compresses exact numbers, exponents and 15-digit values", () => {
    const input = records((i) => (i % 2 ? `1.5e${i % 9}` : `12345678901234${i % 10}`));
    expect(compress(input).reason).toBeUndefined();
  });

  it("keeps an array of distinct free-text records (a bibliography) whole", () => {
    const titles = Array.from({ length: 40 }, (_, i) => ({
      title: `On the ${i}th problem of ${["graphs", "rings", "fields", "sets"][i % 4]} and its ${i * 7} consequences for ${["logic", "algebra"][i % 2]}`,
      year: 1950 + i,
    }));
    const r = compress(JSON.stringify(titles, null, 2));
    for (const t of titles) expect(r.output).toContain(t.title);
  });
});

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

describe("rewrites that would change what the input says", () => {
  it("keeps a terminal line whole when a shorter redraw would leave an earlier one's tail on screen", async () => {
    const { cleanTerminal } = await import("./terminal.js");
    expect(cleanTerminal("error: disk full\rok\nprogress 10%\rprogress 100%\n").text).toBe(
      "error: disk full\rok\nprogress 100%\n",
    );
  });

  it("keeps quantifiers (all, some, any) when prose drops filler words", async () => {
    const { compressProse } = await import("./prose.js");
    const text = "Some tests fail and all builds are slow; the server does not accept any token.";
    const out = compressProse(text, {});
    expect(typeof out === "string" ? text : out.output).toMatch(
      /Some tests fail.*all builds.*not accept any token/,
    );
  });
});

describe("tables that are not redundant rows", () => {
  const header = "id,title,year";
  it("keeps a table of distinct titles whole (a document)", () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) =>
        `${i},"On the ${i}th problem of ${["graphs", "rings", "fields"][i % 3]} and ${i * 7} of its consequences",${1950 + i}`,
    );
    const input = [header, ...rows].join("\n");
    const r = compress(input, { hint: "table" });
    expect(r.output).toBe(input);
    expect(r.reason).toBe("document");
  });

  it("leaves a CSV whole when a quoted cell spans lines (rows are not lines)", () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${i},"note ${i % 3}",${2000 + (i % 4)}`);
    rows[30] = '30,"a note that\ncontinues here",2001';
    const input = [header, ...rows].join("\n");
    const r = compress(input, { hint: "table" });
    expect(r.output).toBe(input);
    expect(r.reason).toBe("parse_error");
  });
});

describe("prose rules on hostile lines", () => {
  const para = "The quick brown fox is basically jumping over the lazy dog and it does not stop here now.";

  it("handles 200,000-character words, and floods of < [ and backticks, in linear time", async () => {
    const { compressProse } = await import("./prose.js");
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
    const { compressProse } = await import("./prose.js");
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
    expect(r.reason).toBe("parse_error");
  });

  it("outlines 100,000-deep nested braces without rescanning the stack", async () => {
    const { scanBraces } = await import("./code/scan.js");
    const depth = 100_000;
    const lines = [`${"{".repeat(depth)}`, `${"}".repeat(depth)}`];
    const pairs = scanBraces(lines, "javascript")!;
    expect(pairs).toHaveLength(depth);
    expect(pairs[0]!.depth).toBe(depth - 1);
    expect(pairs.at(-1)!.depth).toBe(0);
  });

  it("still reads real regex literals holding brackets and slashes", async () => {
    const { scanBraces } = await import("./code/scan.js");
    expect(
      scanBraces(["const re = /[{(]+\\/x/g;", "function f() {", "  return re;", "}"], "javascript"),
    ).toEqual([{ open: 1, close: 3, depth: 0 }]);
  });
});

describe("grep hits with dashes and digits in file names", () => {
  it("files dated names under their own names and counts context lines apart from hits", () => {
    // One file per input: a marker over several files' hits names no file (a region marker).
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
        `migrations/${day}-init.sql x9 (line 40..120; 12 hits in file); 9 context lines`,
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
      expect(r.output).toBe(input);
      expect(r.ratio).toBe(0);
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
