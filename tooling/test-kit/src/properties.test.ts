import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadFactor, PROPERTY_SEED, propertyParams } from "./properties.js";

describe("propertyParams", () => {
  it("keeps the nominal run count on an idle machine", () => {
    const p = propertyParams(500, { machine: { cores: 2, load1: 0.5 } });
    expect(p).toMatchObject({ numRuns: 500, seed: PROPERTY_SEED, markInterruptAsFailure: false });
    expect(p.interruptAfterTimeLimit).toBeGreaterThan(0);
  });
  it("scales down with the load per core, not below the floor", () => {
    expect(loadFactor({ cores: 2, load1: 8 })).toBe(0.25);
    expect(propertyParams(400, { machine: { cores: 2, load1: 8 } }).numRuns).toBe(100);
    expect(propertyParams(400, { machine: { cores: 1, load1: 1000 } }).numRuns).toBe(40);
    expect(propertyParams(5, { machine: { cores: 1, load1: 1000 } }).numRuns).toBe(5);
    expect(propertyParams(400, { machine: { cores: 1, load1: 1000 }, minRuns: 3 }).numRuns).toBe(3);
  });
  it("checks the same cases on every run (fixed seed)", () => {
    const seen = (): number[] => {
      const out: number[] = [];
      fc.assert(
        fc.property(fc.integer(), (n) => {
          out.push(n);
        }),
        propertyParams(20, { machine: { cores: 1, load1: 0 } }),
      );
      return out;
    };
    expect(seen()).toEqual(seen());
  });
  it("stops early on the time budget and passes on what it checked", () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.integer(), () => {
        runs++;
        const until = Date.now() + 5;
        while (Date.now() < until) {}
      }),
      propertyParams(10_000, { budgetMs: 50, machine: { cores: 1, load1: 0 } }),
    );
    expect(runs).toBeGreaterThan(0);
    expect(runs).toBeLessThan(10_000);
  });
});
