import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { untiled } from "../test/tiling.util.js";
import { foldToBudget } from "./budget.js";
import { compress, linesAreHonest } from "./compress.js";
import { isMarkerLine } from "./markers.js";
import { measureTokens } from "./tokens.js";

const tokens = (s: string) => measureTokens(s).tokens;

/** A service log: `noise` INFO lines, with each of `errors` (distinct templates) repeated `times`. */
function serviceLog(noise: number, errors: readonly string[], times = 3): string {
  const lines: string[] = [];
  for (let i = 0; i < noise; i++) {
    lines.push(
      `2026-11-30T10:00:${String(i % 60).padStart(2, "0")}Z INFO GET /api/items/${i} 200 in ${i % 90} ms`,
    );
    const e = Math.floor(i / Math.max(1, Math.floor(noise / (errors.length * times))));
    if (i % Math.max(1, Math.floor(noise / (errors.length * times))) === 7 && e < errors.length * times)
      lines.push(`2026-11-30T10:00:${String(i % 60).padStart(2, "0")}Z ${errors[e % errors.length]} id=${i}`);
  }
  return lines.join("\n");
}

const ERRORS = [
  "ERROR db connection refused host=db-1",
  "ERROR payment declined code=card_expired",
  "WARN cache miss ratio high",
  "ERROR timeout calling inventory",
  "FATAL out of memory in worker",
];

describe("compress with a budget", () => {
  it("keeps one verbatim line of every error and warning template while the budget allows", () => {
    const log = serviceLog(3000, ERRORS);
    const r = compress(log, { budget: 600, hint: "log" });
    expect(r.budget).toEqual({ limit: 600, met: true });
    expect(r.tokensOut).toBeLessThanOrEqual(600);
    for (const e of ERRORS) expect(r.output, e).toContain(e);
    expect(untiled(log, r.output)).toBeUndefined();
  });

  it("keeps the most severe first and says how many templates it could not keep when the budget is too small", () => {
    const many = Array.from({ length: 40 }, (_, k) =>
      `ERROR subsystem${String.fromCharCode(97 + (k % 26))}${k > 25 ? "x" : ""} failed: reason ${"abcdefghij"[k % 10]}${k}`.replace(
        /\d+$/,
        "",
      ),
    );
    const warns = Array.from({ length: 10 }, (_, k) => `WARN slow path ${String.fromCharCode(97 + k)} taken`);
    const log = serviceLog(4000, [...warns, ...many], 1);
    const r = compress(log, { budget: 200, hint: "log" });
    expect(r.tokensOut).toBeLessThanOrEqual(200);
    expect(r.output).toMatch(
      /; \d+ of \d+ error and warning templates not kept \(budget 200 tokens\), the most severe kept/,
    );
    const kept = r.output.split("\n").filter((l) => !isMarkerLine(l));
    expect(kept.some((l) => l.includes("WARN slow path"))).toBe(false);
    expect(kept.some((l) => l.includes("ERROR subsystem"))).toBe(true);
  });

  it("keeps failures, assertions and the summary of a test run", () => {
    const run = [
      ...Array.from({ length: 400 }, (_, i) => ` ✓ src/mod${i % 40}.test.ts > case ${i} passes 1ms`),
      " FAIL  src/pay.test.ts > charges a card",
      "AssertionError: expected 402 to be 200",
      "   at src/pay.test.ts:12:5",
      ...Array.from({ length: 400 }, (_, i) => ` ✓ src/other${i % 40}.test.ts > case ${i} passes 1ms`),
      " Test Files  1 failed | 80 passed (81)",
      "      Tests  1 failed | 800 passed (801)",
    ].join("\n");
    const r = compress(run, { budget: 300, hint: "vitest" });
    expect(r.tokensOut).toBeLessThanOrEqual(300);
    for (const want of [
      "FAIL  src/pay.test.ts > charges a card",
      "AssertionError: expected 402 to be 200",
      "Tests  1 failed | 800 passed (801)",
    ])
      expect(r.output).toContain(want);
  });

  it("folds an input the kind would pass through when it is over the budget (code, a document)", () => {
    const code = Array.from(
      { length: 600 },
      (_, i) => `  const value${i} = compute(${i}, "${"x".repeat(i % 30)}");`,
    ).join("\n");
    const plain = compress(code, { hint: "code" });
    const r = compress(code, { hint: "code", budget: 300 });
    expect(r.tokensOut).toBeLessThanOrEqual(300);
    expect(r.reason).toBeUndefined();
    expect(plain.tokensOut).toBeGreaterThan(300);
    expect(linesAreHonest(code, r.output)).toBe(true);
    expect(untiled(code, r.output)).toBeUndefined();
  });

  it("leaves an output within the budget as the kind made it, and says the budget was met", () => {
    const log = serviceLog(800, ERRORS);
    const plain = compress(log, { hint: "log" });
    const r = compress(log, { hint: "log", budget: plain.tokensOut + 50 });
    expect(r.output).toBe(plain.output);
    expect(r.budget).toEqual({ limit: plain.tokensOut + 50, met: true });
    expect(compress("short", { budget: 100 })).toMatchObject({
      reason: "below_floor",
      budget: { limit: 100, met: true },
    });
  });

  it("cuts a one-line input to a head slice and one marker for the rest of the line", () => {
    const line = Array.from({ length: 6000 }, (_, i) => `w${(i * 7919) % 10007}`).join(" ");
    const r = compress(line, { budget: 200 });
    expect(r.tokensOut).toBeLessThanOrEqual(200);
    const [head, marker] = r.output.split("\n");
    expect(line.startsWith(head!)).toBe(true);
    expect(marker).toBe(
      `[caveman: ${line.length - head!.length} characters elided (line 1 from character ${head!.length + 1})]`,
    );
  });

  it("names the handle once, inside the budget", () => {
    const handle = "ccr_0123456789abcdef0123456789abcdef";
    const r = compress(serviceLog(3000, ERRORS), { budget: 400, handle });
    expect(r.tokensOut).toBeLessThanOrEqual(400);
    expect(r.output.split(`retrieve ${handle}`)).toHaveLength(2);
  });

  it("says the budget was not met when one marker alone is over it", () => {
    const f = foldToBudget(serviceLog(500, ERRORS), 3);
    expect(f.met).toBe(false);
    expect(f.output.split("\n")).toHaveLength(1);
  });
});

// Lines that stress the fold: errors, warnings, stack frames, long lines, CRLF, blank lines, marker look-alikes.
const line = fc.oneof(
  fc.constantFrom(
    "2026-01-01T00:00:00Z INFO GET /api/x 200",
    "2026-01-01T00:00:01Z ERROR db timeout after 30s",
    "2026-01-01T00:00:02Z WARN retrying",
    "    at query (src/db.ts:10:3)",
    "Tests  3 failed | 10 passed (13)",
    "",
    "[caveman: hello]",
    "line with CRLF\r",
  ),
  fc.string({ maxLength: 50 }),
  fc.integer({ min: 200, max: 4000 }).map((n) => `DATA ${"z".repeat(n)}`),
);
const input = fc.array(line, { minLength: 1, maxLength: 600 }).map((l) => l.join("\n"));

describe("compress with a budget, for any input", () => {
  it("never returns a replacement over the budget; lines stay honest; deterministic and idempotent", () => {
    fc.assert(
      fc.property(
        input,
        fc.integer({ min: 60, max: 1500 }),
        fc.constantFrom(undefined, "log", "code", "json", "vitest", "cat"),
        (text, budget, hint) => {
          const opts = { budget, floorTokens: 0, ...(hint ? { hint } : {}) };
          const r = compress(text, opts);
          if (r.output !== text) {
            expect(r.tokensOut).toBeLessThanOrEqual(budget);
            expect(tokens(r.output)).toBe(r.tokensOut);
            expect(linesAreHonest(text, r.output)).toBe(true);
          }
          expect(r.budget).toEqual({ limit: budget, met: r.tokensOut <= budget });
          expect(compress(text, opts).output).toBe(r.output);
          expect(compress(r.output, opts).output).toBe(r.output);
        },
      ),
      propertyParams(150),
    );
  });

  it("a fold's kept lines and marker spans tile the input exactly", () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 80, max: 1500 }), (text, budget) => {
        const f = foldToBudget(text, budget);
        // A head cut (an input of long lines) is checked above; here: folds by whole lines.
        if (/characters elided \(line \d+ from character/.test(f.output)) return;
        if (f.met) expect(untiled(text, f.output)).toBeUndefined();
      }),
      propertyParams(150),
    );
  });
});
