import { describe, expect, it } from "vitest";
import { countTokens, EXACT_TOKEN_LIMIT, measureTokens } from "./tokens.js";

describe("token counts", () => {
  it("counts o200k tokens exactly below the limit", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("hello world")).toBe(2);
    expect(measureTokens("hello world")).toEqual({ tokens: 2, estimated: false });
  });

  it("counts special-token text as ordinary text instead of throwing", () => {
    expect(countTokens("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("labels counts above the limit as estimates, deterministically and close to exact", () => {
    const line = "2026-11-30T10:00:00Z INFO GET /api/items/12345 200 17ms\n";
    const big = line.repeat(Math.ceil((EXACT_TOKEN_LIMIT * 2) / line.length));
    const estimate = measureTokens(big);
    expect(estimate.estimated).toBe(true);
    expect(measureTokens(big)).toEqual(estimate);
    const exact = countTokens(line) * Math.ceil((EXACT_TOKEN_LIMIT * 2) / line.length);
    expect(Math.abs(estimate.tokens - exact) / exact).toBeLessThan(0.05);
  });
});
