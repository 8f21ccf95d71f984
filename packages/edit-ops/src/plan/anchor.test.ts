import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../doc/lines.js";
import { isEditError } from "../errors.js";
import { locate, locateWork, rangeHash, SEARCH_BYTES, SEARCH_LINES } from "./anchor.js";

const doc = (text: string) => ({ bom: false, ...splitLines(text) });

function big(n: number, make = (i: number) => `export const v${i} = f(${i});`): string {
  let t = "";
  for (let i = 1; i <= n; i++) t += `${make(i)}\n`;
  return t;
}

describe("locate (range_hash search)", () => {
  it("bounds its work on a 100,000-line file when the text is nowhere", () => {
    const d = doc(big(100_000));
    const hash = rangeHash(doc("gone\n"), 1, 1);
    expect(() => locate(d, 50_000, 50_000, { hash, moved: null }, "f")).toThrow(/changed since/);
    expect(locateWork.windows).toBeLessThanOrEqual(2 * SEARCH_LINES + 1);
    expect(locateWork.bytes).toBeLessThanOrEqual(SEARCH_BYTES + 200);
  });

  it("stops at the byte budget for a wide range", () => {
    const d = doc(big(100_000, (i) => `${"x".repeat(200)} ${i}`));
    const hash = rangeHash(doc("gone\n"), 1, 1);
    expect(() => locate(d, 40_000, 42_000, { hash, moved: true }, "f")).toThrow(/changed since/);
    // One window past the budget at most.
    expect(locateWork.bytes).toBeLessThanOrEqual(SEARCH_BYTES + 2001 * 210);
  });

  it("compares strings, not hashes, when the named lines hold the text", () => {
    const d = doc(big(100_000));
    const hash = rangeHash(d, 500, 502);
    expect(locate(d, 500, 502, { hash, moved: null }, "f")).toEqual({ start: 500, end: 502 });
    expect(locateWork.bytes).toBeLessThan(200);
  });

  it("finds a range moved down by an insert above, near where it was", () => {
    const before = doc(big(1000));
    const hash = rangeHash(before, 300, 301);
    const after = doc(`a\nb\n${big(1000)}`);
    expect(locate(after, 300, 301, { hash, moved: true }, "f")).toEqual({ start: 302, end: 303 });
  });

  it("returns only lines that hold the anchored text, and the moved ones when they are unique", () => {
    const line = fc.constantFrom("a", "b", "}", "", "x = 1;", "y = 2;");
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(3),
        fc.array(line, { maxLength: 5 }),
        fc.nat(),
        fc.constantFrom(true, null),
        (lines, s0, extra, inserted, at0, moved) => {
          const before = doc(`${lines.join("\n")}\n`);
          const start = 1 + (s0 % lines.length);
          const end = Math.min(lines.length, start + extra);
          const hash = rangeHash(before, start, end);
          const at = at0 % start; // inserted above the range
          const now = [...lines.slice(0, at), ...inserted, ...lines.slice(at)];
          const after = doc(`${now.join("\n")}\n`);
          const copies = now.filter(
            (_, i) =>
              i + 1 + end - start <= now.length && rangeHash(after, i + 1, i + 1 + end - start) === hash,
          ).length;
          try {
            const got = locate(after, start, end, { hash, moved }, "f");
            expect(rangeHash(after, got.start, got.end)).toBe(hash);
            expect(got.start).toBe(start + inserted.length);
          } catch (err) {
            if (!isEditError(err) || err.code !== "conflict") throw err;
            // Refused only when the text is in more than one place.
            expect(copies).toBeGreaterThan(1);
          }
        },
      ),
      propertyParams(500),
    );
  });
});
