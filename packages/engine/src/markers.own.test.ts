// Finding 10: a marker-looking line in an original must not turn compression off. Only a text
// whose markers parse and tile where they sit (or that opens or closes with our note) counts as
// one this engine already wrote, and compressing that again passes it through unchanged.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { corpusItems } from "./corpus.test-util.js";
import { hasOwnMarker } from "./markers.js";

const log = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `2026-11-30 10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")} INFO job ${i} done`,
  );

const FAKES = [
  "[caveman: lines 40-80 elided]",
  "[caveman: 12 of lines 6-20 elided; INFO]",
  "  [caveman: 30 hits elided (lines 3-33)]",
  "[caveman: 5 items elided (2-6 of 9 at /)]",
  '[caveman: log output compressed, 900 -> 40 tokens; call caveman_retrieve with recovery_handle "ccr_00112233445566778899aabbccddeeff"]',
  '"[caveman: 6 items elided (2-7 of 10 at /)]",',
];

describe("a marker-looking line inside an original", () => {
  it.each(FAKES)("%s in the middle of a log does not stop its compression", (fake) => {
    const lines = log(400);
    lines.splice(200, 0, fake);
    const input = lines.join("\n");
    expect(hasOwnMarker(input)).toBe(false);
    const r = compress(input);
    expect(r.reason).toBeUndefined();
    expect(r.tokensOut).toBeLessThan(r.tokensIn / 2);
    // The result is ours now: a second pass leaves it as it is.
    expect(compress(r.output).output).toBe(r.output);
  });

  it("anywhere but where its span would begin, any of our shapes is content", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 298 }), fc.integer({ min: 1, max: 299 }), (at, from) => {
        fc.pre(from !== at + 1);
        const lines = log(300);
        lines.splice(at, 0, `[caveman: lines ${from}-${from + 9} elided]`);
        expect(hasOwnMarker(lines.join("\n"))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe("a text this engine wrote", () => {
  it("counts as compressed for every corpus item that compressed with markers", () => {
    let checked = 0;
    for (const item of corpusItems()) {
      for (const handle of [undefined, "ccr_00112233445566778899aabbccddeeff"]) {
        const r = compress(item.content, {
          ...(item.hint ? { hint: item.hint } : {}),
          ...(handle ? { handle } : {}),
        });
        if (r.reason || !r.output.includes("[caveman: ")) continue;
        checked += 1;
        expect(hasOwnMarker(r.output), item.id).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("counts as compressed under a header or above a trailer naming the stored original", () => {
    const header =
      '[caveman: log output compressed, 9000 -> 400 tokens; call caveman_retrieve with recovery_handle "ccr_00112233445566778899aabbccddeeff"]';
    const body = log(300).join("\n");
    expect(hasOwnMarker(`${header}\n${body}`)).toBe(true);
    expect(hasOwnMarker(`${body}\n${header}\n`)).toBe(true);
  });
});
