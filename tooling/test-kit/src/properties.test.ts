import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadFactor, PROPERTY_SEED, PROPERTY_SEED_ENV, propertyParams } from "./properties.js";

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
  /** How many runs a property whose every run takes 5 ms of CPU gets under `options`. */
  const slowRuns = (runs: number, options: Parameters<typeof propertyParams>[1]): number => {
    let done = 0;
    fc.assert(
      fc.property(fc.integer(), () => {
        done++;
        const until = Date.now() + 5;
        while (Date.now() < until) {}
      }),
      propertyParams(runs, { ...options, machine: { cores: 1, load1: 0 } }),
    );
    return done;
  };
  it("stops early on the time budget and passes on what it checked", () => {
    const runs = slowRuns(10_000, { budgetMs: 50, minRuns: 10 });
    expect(runs).toBeGreaterThanOrEqual(10);
    expect(runs).toBeLessThan(10_000);
  });
  it("always does the floor of runs, however slow each run is against the budget", () => {
    const runs = slowRuns(200, { budgetMs: 1, minRuns: 30 });
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

describe("seed override for exploration", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  it("takes CAVEMAN_PROPERTY_SEED over the fixed seed and over a test's own seed", () => {
    vi.stubEnv(PROPERTY_SEED_ENV, "42");
    expect(propertyParams(10).seed).toBe(42);
    expect(propertyParams(10, { seed: 13 }).seed).toBe(42);
  });
  it("keeps the fixed or named seed when the variable is unset or blank", () => {
    vi.stubEnv(PROPERTY_SEED_ENV, "");
    expect(propertyParams(10).seed).toBe(PROPERTY_SEED);
    expect(propertyParams(10, { seed: 13 }).seed).toBe(13);
  });
  it("draws a fresh integer seed for `random`", () => {
    vi.stubEnv(PROPERTY_SEED_ENV, "random");
    const seeds = new Set(Array.from({ length: 8 }, () => propertyParams(10).seed));
    for (const seed of seeds) expect(Number.isSafeInteger(seed)).toBe(true);
    expect(seeds.size).toBeGreaterThan(1);
  });
  it("rejects a value that is not a seed, naming the variable", () => {
    vi.stubEnv(PROPERTY_SEED_ENV, "12abc");
    expect(() => propertyParams(10)).toThrow(/CAVEMAN_PROPERTY_SEED=12abc/);
  });
});
