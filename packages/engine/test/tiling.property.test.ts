// Region markers under attack: random logs, grep hits, path lists, diffstat listings and mixes of
// them, with lone CRs, CRLF, loose marker-like lines and huge lines. Every line-based result
// tiles its input (each region marker's count and span are exact, its kept lines verbatim and
// in order), compress is deterministic and idempotent, and a marker line pasted into narrow as a
// query (indented or not) brings back exactly the lines of its span.
import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress, narrow } from "../src/index.js";
import { NOT_TILED, untiled } from "./tiling.util.js";

const ending = fc.constantFrom("", "", "", "\r", " \r");
const logLine = fc
  .tuple(
    fc.constantFrom("INFO", "INFO", "WARN", "ERROR", "DEBUG"),
    fc.nat(40),
    fc.constantFrom("GET /api/x", "user 12 logged in", "slow query 33ms", "retry"),
    ending,
  )
  .map(([l, n, m, e]) => `2024-01-01T00:00:${String(n % 60).padStart(2, "0")}Z ${l} ${m} ${n}${e}`);
const grepLine = fc
  .tuple(
    fc.constantFrom("src/a.ts", "src/b.ts", "lib/c.js"),
    fc.nat(300),
    fc.constantFrom("TODO fix", "import y"),
    ending,
  )
  .map(([f, n, m, e]) => `${f}:${n}:${m}${e}`);
const pathLine = fc
  .tuple(fc.constantFrom("src", "lib", "test"), fc.constantFrom("a", "b", "c"), fc.nat(50))
  .map(([d, f, n]) => `${d}/${f}${n}.ts`);
// Loose notes an original may hold; the engine's own forms make a text count as compressed.
const markerLike = fc.constantFrom("  [caveman: hello]", "[caveman: build 12 started]", '"[caveman: x]",');
const anyLine = fc.oneof(
  { weight: 5, arbitrary: logLine },
  { weight: 3, arbitrary: grepLine },
  { weight: 2, arbitrary: pathLine },
  { weight: 1, arbitrary: markerLike },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constant("x".repeat(3000)) },
);
const statBlock = fc
  .tuple(
    fc.stringMatching(/^[0-9a-f]{7}$/),
    fc.array(fc.tuple(pathLine, fc.nat(400)), { minLength: 1, maxLength: 14 }),
  )
  .map(([h, files]) =>
    [
      `commit ${h}`,
      "",
      "    message",
      "",
      ...files.map(([p, n]) => ` ${p.padEnd(20)} | ${n} ${"+".repeat(Math.min(n, 30))}`),
      ` ${files.length} files changed, 3 insertions(+)`,
    ].join("\n"),
  );
const text = (line: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.array(line, { minLength: 30, maxLength: 400 }), fc.boolean())
    .map(([ls, crlf]) => ls.join(crlf ? "\r\n" : "\n"));
const INPUTS = {
  log: text(logLine),
  grep: text(grepLine),
  paths: text(pathLine),
  mix: text(anyLine),
  diffstat: fc.array(statBlock, { minLength: 2, maxLength: 12 }).map((b) => b.join("\n\n")),
};
const HINTS = [undefined, "log", "grep", "paths", "table", "git log --stat"];
const SPAN = /^\[caveman: (?:\d+ of )?lines? (\d+)(?:-(\d+))? elided/;

describe("region markers on random line-based output", () => {
  for (const [name, input] of Object.entries(INPUTS)) {
    it(`${name}: tiles the input, deterministic and idempotent`, () => {
      fc.assert(
        fc.property(input, fc.constantFrom(...HINTS), (text, hint) => {
          const opts = { handle: "cv_prop", ...(hint ? { hint } : {}) };
          const r = compress(text, opts);
          expect(compress(text, opts).output).toBe(r.output);
          if (r.reason) return;
          expect(compress(r.output, opts).output).toBe(r.output);
          if (!NOT_TILED.has(r.kind)) expect(untiled(text, r.output)).toBeUndefined();
        }),
        propertyParams(300),
      );
    });
  }

  it("narrow takes any marker line pasted whole, indented or not, as its span", () => {
    fc.assert(
      fc.property(text(anyLine), fc.constantFrom(...HINTS), fc.constantFrom("", "  "), (text, hint, pad) => {
        const r = compress(text, { handle: "cv_prop", ...(hint ? { hint } : {}) });
        const lines = text.split("\n");
        for (const line of r.reason ? [] : r.output.split("\n")) {
          const m = SPAN.exec(line);
          if (!m) continue;
          const n = narrow(text, `${pad}${line}${pad}`, { budget: Number.POSITIVE_INFINITY });
          expect(n.output).toBe(lines.slice(Number(m[1]) - 1, Number(m[2] ?? m[1])).join("\n"));
        }
      }),
      propertyParams(200),
    );
  });
});
