import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidChipId, newChipId, parseChipRef } from "./ids.js";
import { formatInstant, parseInstant } from "./time.js";

describe("chip ids", () => {
  it("accepts exactly 6 or 12 lowercase hex characters", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isValidChipId(s)).toBe(/^[0-9a-f]{6}([0-9a-f]{6})?$/.test(s));
      }),
      propertyParams(),
    );
  });

  it("parses chip:// references and bare ids", () => {
    expect(parseChipRef(" chip://abc123 ")).toBe("abc123");
    expect(parseChipRef("abc123def456")).toBe("abc123def456");
    expect(parseChipRef("chip://../etc")).toBeNull();
  });

  it("makes ids of the asked length from the random source", () => {
    expect(newChipId(() => Uint8Array.from([1, 2, 255]), false)).toBe("0102ff");
    expect(newChipId(() => Uint8Array.from([0, 1, 2, 3, 4, 5]), true)).toBe("000102030405");
  });
});

describe("created_at", () => {
  it("round-trips through RFC 3339 with nanoseconds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: 0, max: 999_999 }),
        (ms, subNs) => {
          expect(parseInstant(formatInstant({ ms, subNs }))).toEqual({ ms, subNs });
        },
      ),
      propertyParams(),
    );
  });

  it("reads Go's trimmed fractions and offsets", () => {
    expect(parseInstant("2026-11-30T10:00:00.5+01:00")).toEqual({
      ms: Date.UTC(2026, 10, 30, 9, 0, 0, 500),
      subNs: 0,
    });
    expect(parseInstant("yesterday")).toBeNull();
  });
});
