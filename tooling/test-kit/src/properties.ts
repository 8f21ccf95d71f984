// fast-check parameters sized to the machine. A property test names the run count it wants on an
// idle machine; on a loaded host (load average above the core count, as on a shared 2-core CI
// box) it gets proportionally fewer runs, never fewer than a floor. Past the floor, a wall-clock
// budget stops the run early (it passes on what it checked) instead of the test hitting vitest's
// timeout; the budget never cuts a run below the floor, so a slow machine cannot turn a property
// test into one that checks nothing. The seed is fixed, so the cases checked are the same on
// every run: a smaller run count checks a prefix of the same sequence, and a failure reproduces by
// rerunning. CAVEMAN_PROPERTY_SEED overrides the seed for exploration (a number, or `random`).
import { availableParallelism, loadavg } from "node:os";
import type { Parameters, Plugin } from "fast-check";

/** The fixed seed every property test uses unless it names its own. */
export const PROPERTY_SEED = 20_261_201;

/** Environment variable that overrides every property test's seed: an integer, or `random`. */
export const PROPERTY_SEED_ENV = "CAVEMAN_PROPERTY_SEED";

/** What the machine looks like right now. */
export interface MachineLoad {
  cores: number;
  /** One-minute load average (0 where the OS does not report one, e.g. Windows). */
  load1: number;
}

export interface PropertyOptions {
  /** Seed (default PROPERTY_SEED); CAVEMAN_PROPERTY_SEED, when set, wins over both. */
  seed?: number;
  /**
   * Wall-clock budget in ms after which no new run starts once the floor is done (default 10 s,
   * a third of the test timeout).
   */
  budgetMs?: number;
  /** Always do at least this many runs, budget or not (default: a tenth of `runs`, at least 10). */
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

/** The seed to use: the environment's override, else the test's own, else PROPERTY_SEED. */
function propertySeed(own?: number): number {
  const raw = process.env[PROPERTY_SEED_ENV]?.trim();
  if (raw === undefined || raw === "") return own ?? PROPERTY_SEED;
  // fast-check prints the seed of a failing run, so a random one can be replayed by setting it.
  if (raw === "random") return (Math.random() * 0x7fff_ffff) | 0;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed))
    throw new Error(`${PROPERTY_SEED_ENV}=${raw} is not an integer seed (or "random")`);
  return seed;
}

// fast-check's own interruptAfterTimeLimit counts from the start regardless of how many runs are
// done (on a loaded box it stopped properties after one run, and failed async ones after none),
// so this plugin only interrupts once `floor` runs have passed. The interrupt is fast-check's
// PreconditionFailure shape, recognised through its cross-copy Symbol.for footprint; built here
// because apps that use this kit for temp dirs do not install fast-check. The kit's tests prove
// against the real fast-check that the interrupt is honoured.
const PRECONDITION_FOOTPRINT = Symbol.for("fast-check/PreconditionFailure");

function interruption(): Error {
  return Object.assign(new Error("property time budget spent"), {
    interruptExecution: true,
    footprint: PRECONDITION_FOOTPRINT,
  });
}

function budgetAfterFloor<T>(floor: number, budgetMs: number): Plugin<T> {
  return () => {
    const deadline = Date.now() + budgetMs;
    let passed = 0;
    // Set when a counterexample is found: shrinking then gets a budget of its own, and an
    // interrupted shrink still reports the smallest counterexample found so far.
    let shrinkDeadline: number | undefined;
    // A run yields null when it passed, a precondition failure when skipped, else the failure.
    const note = <R>(out: R): R => {
      if (out === null) passed++;
      else if (
        typeof out === "object" &&
        (out as { footprint?: unknown }).footprint !== PRECONDITION_FOOTPRINT
      )
        shrinkDeadline ??= Date.now() + budgetMs;
      return out;
    };
    return {
      decorateRun: (nestedRun) => (value) => {
        const now = Date.now();
        if (shrinkDeadline === undefined ? passed >= floor && now >= deadline : now >= shrinkDeadline)
          return interruption() as unknown as ReturnType<typeof nestedRun>;
        const out = nestedRun(value);
        if (out !== null && typeof out === "object" && "then" in out)
          return out.then(note) as ReturnType<typeof nestedRun>;
        return note(out);
      },
    };
  };
}

/** fast-check parameters for a property that wants `runs` runs on an idle machine (default 100). */
export function propertyParams<T = unknown>(runs = 100, options: PropertyOptions = {}): Parameters<T> {
  const floor = Math.min(runs, options.minRuns ?? Math.max(10, Math.ceil(runs / 10)));
  const numRuns = Math.max(floor, Math.round(runs * loadFactor(options.machine ?? machineLoad())));
  return {
    numRuns,
    seed: propertySeed(options.seed),
    plugins: [budgetAfterFloor<T>(floor, options.budgetMs ?? 10_000)],
    markInterruptAsFailure: false,
  };
}
