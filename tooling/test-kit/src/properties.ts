// fast-check parameters sized to the machine. A property test names the run count it wants on an
// idle machine; on a loaded host (load average above the core count, as on a shared 2-core CI
// box) it gets proportionally fewer runs and a wall-clock budget after which fast-check stops
// early and passes on what it has checked, instead of the test hitting vitest's timeout. The seed
// is fixed, so the cases checked are the same on every run: a smaller run count checks a prefix
// of the same sequence, and a failure reproduces by rerunning.
import { availableParallelism, loadavg } from "node:os";
import type { Parameters } from "fast-check";

/** The fixed seed every property test uses unless it names its own. */
export const PROPERTY_SEED = 20_261_201;

/** What the machine looks like right now. */
export interface MachineLoad {
  cores: number;
  /** One-minute load average (0 where the OS does not report one, e.g. Windows). */
  load1: number;
}

export interface PropertyOptions {
  /** Seed (default PROPERTY_SEED). */
  seed?: number;
  /** Wall-clock budget in ms after which no new run starts (default 10 s, a third of the test timeout). */
  budgetMs?: number;
  /** Never go below this many runs (default: a tenth of `runs`, at least 10). */
  minRuns?: number;
  /** The machine to size for (default: this one, now). */
  machine?: MachineLoad;
}

export function machineLoad(): MachineLoad {
  return { cores: availableParallelism(), load1: loadavg()[0] ?? 0 };
}

/**
 * The share of the nominal runs to do: 1 while the load per core is at most 1, else the inverse
 * of the overload (load 4 on 2 cores -> 0.5).
 */
export function loadFactor(machine: MachineLoad): number {
  const perCore = machine.load1 / Math.max(1, machine.cores);
  return perCore <= 1 ? 1 : 1 / perCore;
}

/** fast-check parameters for a property that wants `runs` runs on an idle machine (default 100). */
export function propertyParams<T = unknown>(runs = 100, options: PropertyOptions = {}): Parameters<T> {
  const floor = Math.min(runs, options.minRuns ?? Math.max(10, Math.ceil(runs / 10)));
  const numRuns = Math.max(floor, Math.round(runs * loadFactor(options.machine ?? machineLoad())));
  return {
    numRuns,
    seed: options.seed ?? PROPERTY_SEED,
    interruptAfterTimeLimit: options.budgetMs ?? 10_000,
    markInterruptAsFailure: false,
  };
}
