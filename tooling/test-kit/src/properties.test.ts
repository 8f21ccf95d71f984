import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadFactor, PROPERTY_SEED, propertyParams } from "./properties.js";

describe("propertyParams", () => {
  it("keeps the nominal run count on an idle machine", () => {
    const p = propertyParams(500, { machine: { cores: 2, load1: 0.5 } });
    expect(p).toMatchObject({ numRuns: 500, seed: PROPERTY_SEED, markInterruptAsFailure: false });
    expect(p.plugins).toHaveLength(1);
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
      propertyParams(10_000, { budgetMs: 50, minRuns: 10, machine: { cores: 1, load1: 0 } }),
    );
    expect(runs).toBeGreaterThanOrEqual(10);
    expect(runs).toBeLessThan(10_000);
  });
  it("always does the floor of runs, however slow each run is against the budget", () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.integer(), () => {
        runs++;
        const until = Date.now() + 5;
        while (Date.now() < until) {}
      }),
      propertyParams(200, { budgetMs: 1, minRuns: 30, machine: { cores: 1, load1: 0 } }),
    );
    expect(runs).toBeGreaterThanOrEqual(30);
    expect(runs).toBeLessThan(200);
  });
  it("does the floor of an async property too, then stops on the budget", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer(), async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 2));
      }),
      propertyParams(300, { budgetMs: 1, minRuns: 25, machine: { cores: 1, load1: 0 } }),
    );
    expect(runs).toBeGreaterThanOrEqual(25);
    expect(runs).toBeLessThan(300);
  });
  it("still reports a failing property found after the budget ran out", () => {
    expect(() =>
      fc.assert(
        fc.property(fc.nat(), (n) => {
          const until = Date.now() + 2;
          while (Date.now() < until) {}
          return n < 5;
        }),
        propertyParams(100, { budgetMs: 1, minRuns: 100, machine: { cores: 1, load1: 0 } }),
      ),
    ).toThrow(/Counterexample/);
  });
});
