// Linear work on adversarial input, counted and not timed: the engine's loops add the items they
// visit to an internal meter (work.ts). For every input family below, compressing and narrowing
// an input four times larger must cost at most about four times the steps, and never more than a
// fixed number of steps per character. A quadratic loop (a scan that restarts per line, a search
// over everything kept so far) breaks the ratio long before it breaks a test timeout.
import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { narrow } from "./narrow.js";
import { workDone } from "./work.js";

/** Adversarial families: (size, seed character) -> text of about `size` characters. */
const FAMILIES: Record<string, (n: number, c: string) => string> = {
  "run of one bracket or quote": (n, c) => c.repeat(n),
  "one line without whitespace": (n, c) => `${c}x1-`.repeat(Math.ceil(n / 4)),
  "lines without whitespace": (n, c) =>
    Array.from({ length: Math.ceil(n / 80) }, (_, i) => `${c}${i}`.padEnd(80, c)).join("\n"),
  "thousands of tiny units": (n, c) => `${c}\n\n`.repeat(Math.ceil(n / 3)),
  "one-line functions": (n, c) =>
    Array.from({ length: Math.ceil(n / 60) }, (_, i) => `function f${i}(a) { return a ${c} ${i}; }`).join(
      "\n",
    ),
  "nested brackets": (n, c) => `${"{[(".repeat(Math.ceil(n / 6))}${c}${")]}".repeat(Math.ceil(n / 6))}`,
  "log lines": (n, c) =>
    Array.from(
      { length: Math.ceil(n / 60) },
      (_, i) => `081109 2036${String(i % 60).padStart(2, "0")} ${i} INFO dfs.${c} block ${i}`,
    ).join("\n"),
};

/** Steps to compress `text` and narrow it with a query. */
function stepsFor(text: string, query: string): number {
  const before = workDone();
  compress(text);
  narrow(text, query);
  return workDone() - before;
}

describe("work grows linearly with the input", () => {
  it("holds for every adversarial family and seed character", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FAMILIES)),
        fc.constantFrom("[", "(", "{", '"', "'", "`", "/", "\\", "a", "1", "<", "*"),
        fc.constantFrom("(a+)+$", ".*.*.*x", "block 7", "return"),
        (family, c, query) => {
          const make = FAMILIES[family]!;
          const small = make(20_000, c);
          const large = make(80_000, c);
          const w1 = stepsFor(small, query);
          const w4 = stepsFor(large, query);
          expect(w4, `${family} / ${JSON.stringify(c)}`).toBeLessThanOrEqual(6 * w1 + 10_000);
          expect(w4).toBeLessThanOrEqual(200 * large.length);
        },
      ),
      propertyParams(60, { seed: 13 }),
    );
  });
});
