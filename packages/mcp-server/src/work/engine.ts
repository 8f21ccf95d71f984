// What the tools call to run the engine: the Engine contract, its outcomes, the time budget of a
// call, and the engine on the calling thread. Contract: `run` never throws and always settles,
// with the engine's answer or with why there is none (`timeout`, `cancelled`, `failed`); the
// caller then passes its input through unchanged. The worker pool (pool.ts) is the other Engine.
import { type Answer, type EngineJob, runJob } from "./jobs.js";

/** Budget for an input of up to one MiB of characters (`--engine-timeout-ms`). */
export const DEFAULT_ENGINE_TIMEOUT_MS = 4000;
/** A larger input gets the base budget per MiB, up to this many times the base. */
export const MAX_BUDGET_FACTOR = 8;
/** Inputs up to this many characters run inline; measured worst case about 2 ms on today's engine. */
export const DEFAULT_INLINE_MAX_CHARS = 2048;
const MIB = 1024 * 1024;

/**
 * The time budget of one engine call on `chars` characters: `baseMs` up to one MiB, then `baseMs`
 * per MiB, capped at `MAX_BUDGET_FACTOR` times `baseMs` (default: 4 s, 4 s/MiB, at most 32 s).
 */
export function engineBudgetMs(baseMs: number, chars: number): number {
  return Math.round(baseMs * Math.min(MAX_BUDGET_FACTOR, Math.max(1, chars / MIB)));
}

export type EngineFailure = "timeout" | "cancelled" | "failed";

export type EngineOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; why: EngineFailure; budgetMs: number; message: string };

/** Counters for `caveman_stats`: cheap, and enough to see that a cancel stopped a worker. */
export interface EngineStats {
  mode: "workers" | "inline";
  budget_ms: number;
  pool_size: number;
  workers_live: number;
  workers_busy: number;
  jobs_inline: number;
  jobs_in_workers: number;
  timeouts: number;
  cancelled: number;
  failed: number;
  workers_started: number;
  workers_stopped: number;
}

/** What the tools call: the engine, possibly elsewhere, under a deadline. */
export interface Engine {
  run<J extends EngineJob>(job: J, signal?: AbortSignal): Promise<EngineOutcome<Answer<J>>>;
  stats(): EngineStats;
  close(): Promise<void>;
}

export function failure(why: EngineFailure, budgetMs: number, message: string): EngineOutcome<never> {
  return { ok: false, why, budgetMs, message };
}

export function runInline<J extends EngineJob>(job: J, budgetMs: number): EngineOutcome<Answer<J>> {
  try {
    return { ok: true, value: runJob(job) };
  } catch (err) {
    return failure("failed", budgetMs, err instanceof Error ? err.message : String(err));
  }
}

/** The engine on this thread, without a deadline: for one-shot CLI commands and tests. */
export function inlineEngine(): Engine {
  let jobs = 0;
  let failed = 0;
  return {
    run: <J extends EngineJob>(job: J) => {
      jobs++;
      const outcome = runInline(job, 0);
      if (!outcome.ok) failed++;
      return Promise.resolve(outcome);
    },
    stats: () => ({
      mode: "inline",
      budget_ms: 0,
      pool_size: 0,
      workers_live: 0,
      workers_busy: 0,
      jobs_inline: jobs,
      jobs_in_workers: 0,
      timeouts: 0,
      cancelled: 0,
      failed,
      workers_started: 0,
      workers_stopped: 0,
    }),
    close: () => Promise.resolve(),
  };
}
