// Property tests (fast-check): compress is deterministic, idempotent, never throws, and either
// passes input through byte-identical with a reason or shrinks it honestly.
import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { isMarkerLine } from "./markers.js";
import { narrow } from "./narrow.js";
import { toonDecode, toonEncode } from "./toon.js";

const HINTS = [
  undefined,
  "json",
  "log",
  "grep",
  "diff",
  "code",
  "prose",
  "table",
  "test",
  "tsc",
  "git diff",
  "Read",
];

// Line-structured text that looks like tool output, so compressors actually engage.
const toolLine = fc.oneof(
  fc.constantFrom("ERROR failed to connect", "WARN slow query", "    at f (src/a.ts:1:2)", "", "}", "{"),
  fc
    .tuple(
      fc.integer({ min: 0, max: 99 }),
      fc.constantFrom("INFO GET /api/", "src/a.ts:", "+ added ", "- removed ", " ctx "),
    )
    .map(([n, p]) => `${p}${n}`),
  fc.string({ maxLength: 40 }),
);
const toolText = fc
  .array(toolLine, { minLength: 0, maxLength: 400, size: "large" })
  .map((ls) => ls.join("\n"));
const jsonText = fc
  .array(
    fc.record({
      id: fc.nat(50),
      ok: fc.boolean(),
      tag: fc.constantFrom("a", "b", "c"),
      note: fc.string({ maxLength: 8 }),
    }),
    {
      maxLength: 120,
      size: "large",
    },
  )
  .map((xs) => JSON.stringify({ total: xs.length, items: xs }, null, 2));
const csvText = fc
  .array(fc.tuple(fc.nat(30), fc.constantFrom("eu", "us", "ap"), fc.constantFrom("ok", "error")), {
    maxLength: 150,
    size: "large",
  })
  .map((rows) => ["id,region,status", ...rows.map((r) => r.join(","))].join("\n"));
const diffText = fc
  .array(
    fc.tuple(
      fc.constantFrom(" ", "+", "-", "@@ -1,3 +1,3 @@", "diff --git a/x b/x"),
      fc.string({ maxLength: 20 }),
    ),
    {
      maxLength: 200,
      size: "large",
    },
  )
  .map((ls) => ls.map(([p, t]) => (p.length > 1 ? p : `${p}${t}`)).join("\n"));
const codeLine = fc.constantFrom(
  "function f(a) {",
  "  return a;",
  "}",
  "const x = { a: 1 };",
  "class A {",
  "  m() {",
  "    x();",
  "  }",
  "// }",
  "'{'",
);
const codeText = fc.array(codeLine, { maxLength: 300, size: "large" }).map((ls) => ls.join("\n"));
const anyText = fc.oneof(
  toolText,
  jsonText,
  csvText,
  diffText,
  codeText,
  fc.string({ maxLength: 3000 }),
  fc.string({ unit: "grapheme", maxLength: 500 }),
);
const options = fc.record(
  {
    hint: fc.constantFrom(...HINTS),
    query: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    floorTokens: fc.constantFrom(0, 0, 50, 300),
  },
  { requiredKeys: [] },
);

describe("compress properties", () => {
  it("never throws, and fails closed or shrinks honestly", () => {
    fc.assert(
      fc.property(anyText, options, (input, opts) => {
        const r = compress(input, opts as never);
        if (r.reason) {
          expect(r.output).toBe(input);
          expect(r.ratio).toBe(0);
        } else {
          expect(r.tokensOut).toBeLessThan(r.tokensIn);
          expect(r.ratio).toBeGreaterThan(0);
          if (!r.lossless && r.kind !== "prose" && r.kind !== "terminal") {
            const lines = new Set(input.split("\n"));
            for (const line of r.output.split("\n"))
              expect(lines.has(line) || isMarkerLine(line) || input.includes(line)).toBe(true);
          }
        }
      }),
      propertyParams(300),
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(anyText, options, (input, opts) => {
        expect(compress(input, opts as never)).toEqual(compress(input, opts as never));
      }),
      propertyParams(150),
    );
  });

  it("is idempotent: compressing the output again changes nothing", () => {
    fc.assert(
      fc.property(anyText, options, (input, opts) => {
        const once = compress(input, opts as never).output;
        expect(compress(once, opts as never).output).toBe(once);
      }),
      propertyParams(300),
    );
  });

  it("narrow never throws and returns the original or a smaller view", () => {
    fc.assert(
      fc.property(anyText, fc.string({ maxLength: 12 }), (input, query) => {
        const v = narrow(input, query);
        if (v.full) expect(v.output).toBe(input);
        else expect(v.output.length).toBeLessThanOrEqual(Math.max(input.length, 200));
      }),
      propertyParams(200),
    );
  });

  it("TOON round-trips any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value);
        const enc = toonEncode(json);
        expect(enc.ok).toBe(true);
        if (!enc.ok) return;
        const dec = toonDecode(enc.output);
        expect(dec.ok).toBe(true);
        if (dec.ok) expect(JSON.parse(dec.output)).toEqual(JSON.parse(json));
      }),
      propertyParams(200),
    );
  });
});
