import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { narrow } from "../narrow.js";
import { measureTokens } from "../tokens.js";

const line = fc.oneof(
  fc.constantFrom(
    "2026-01-01T00:00:00Z INFO GET /api/x 200",
    "2026-01-01T00:00:01Z ERROR db timeout after 30s",
    "    at query (src/db.ts:10:3)",
    "src/a.ts:12:3 - error TS2322: Type 'string' is not assignable",
    "",
    "--",
    "[caveman: lines 2-9 elided]",
    "\r",
  ),
  fc.string({ maxLength: 60 }),
  fc.integer({ min: 300, max: 6000 }).map((n) => `{"k":"${"v".repeat(n)}","error":"boom"}`),
);
const text = fc.array(line, { minLength: 1, maxLength: 400 }).map((l) => l.join("\n"));

/** A query as people write them, drawn from the text itself or not. */
function query(t: string): fc.Arbitrary<string> {
  const lines = t.split("\n");
  const some = fc.integer({ min: 0, max: lines.length - 1 }).map((i) => lines[i]!);
  return fc.oneof(
    some.map((l) => l.slice(0, 30)),
    some.map((l) => l.split(/\s+/).reverse().join(" ")),
    some.map((l) => `/${l.slice(0, 12).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/i`),
    fc.constantFrom("error", "timeout", "INFO", "zebra", "/(a+)+$/", "->", "/0/k"),
    fc
      .tuple(fc.integer({ min: 0, max: lines.length + 5 }), fc.integer({ min: 0, max: 500 }))
      .map(([a, b]) => `lines:${a}-${a + b}`),
    fc.integer({ min: 1, max: 6 }).map((p) => `error page:${p}`),
    fc.integer({ min: 1, max: 60 }).map((a) => `[caveman: lines ${a}-${a + 40} elided; x]`),
  );
}

describe("narrow views stay inside their budget", () => {
  it("for any text and any query form, every view costs at most the budget (pages aside)", () => {
    fc.assert(
      fc.property(
        text.chain((t) => fc.tuple(fc.constant(t), query(t), fc.constantFrom(100, 250, 400, 1000))),
        ([t, q, budget]) => {
          // The empty query is a full retrieve: pages of `pageTokens`, not a view.
          if (q.trim() === "") return;
          const v = narrow(t, q, { budget });
          const cost = measureTokens(v.output).tokens;
          if (v.full) expect(measureTokens(t).tokens).toBeLessThanOrEqual(budget);
          else expect(cost).toBeLessThanOrEqual(budget);
          // Deterministic: the same question gets the same view.
          expect(narrow(t, q, { budget }).output).toBe(v.output);
        },
      ),
      propertyParams(150),
    );
  });

  it("never shows a line that is not in the original: hits and context are numbered original lines", () => {
    fc.assert(
      fc.property(
        text.chain((t) => fc.tuple(fc.constant(t), query(t))),
        ([t, q]) => {
          const lines = t.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
          // Slices are raw lines of the original; this is about the numbered lines of a search.
          if (q.trim() === "" || /^(lines:|\[caveman)/.test(q.trim())) return;
          const v = narrow(t, q);
          if (v.full) return;
          for (const l of v.output.split("\n")) {
            const m = /^(\d+)([:-])([\s\S]*)$/.exec(l);
            if (!m) {
              expect(l === "--" || l.startsWith("[caveman: ")).toBe(true);
              continue;
            }
            const original = lines[Number(m[1]) - 1];
            expect(original).toBeDefined();
            expect(original!.includes(m[3]!)).toBe(true);
          }
        },
      ),
      propertyParams(150),
    );
  });
});
