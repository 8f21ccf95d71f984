// Engine work off the event loop, with a deadline per call. Contract: `EnginePool.run` never
// throws and always settles: with the engine's answer, or with `timeout` (the call's budget ran
// out), `cancelled` (its AbortSignal fired) or `failed` (the engine threw, the worker crashed or ran
// out of memory, or no worker could start). A worker still busy with a call that timed out or was
// cancelled is terminated at once and replaced on demand, so nothing keeps burning CPU for an
// answer nobody will read. Inputs up to `inlineMaxChars` run on the calling thread (a worker
// round trip costs more than they do); everything larger runs in a small pool of
// `node:worker_threads` workers, started on first use so starting the server stays cheap.
//
// Time rules (ms): a call's budget is `engineBudgetMs(timeoutMs, input length)`. It bounds the
// run in a worker, and separately the wait for a busy worker; the start-up of a fresh worker
// (loading the engine, about 0.1–1 s) is not charged to the calls waiting for it.
import { availableParallelism } from "node:os";
import type { Logger } from "../logger.js";
import {
  DEFAULT_ENGINE_TIMEOUT_MS,
  DEFAULT_INLINE_MAX_CHARS,
  type Engine,
  type EngineOutcome,
  type EngineStats,
  engineBudgetMs,
  failure,
  runInline,
} from "./engine.js";
import type { JobMessage, WorkerMessage } from "./engine-worker.js";
import type { Answer, EngineJob } from "./jobs.js";
import { defaultMaxHeapMb, openSlot, type Pending, type Slot } from "./slot.js";

export interface EnginePoolOptions {
  /** Budget for inputs up to one MiB (default `DEFAULT_ENGINE_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Workers at most (default: 2, or 1 on a machine with two or fewer cores). */
  size?: number;
  inlineMaxChars?: number;
  /**
   * The worker script. Default: `engine-worker.js` beside the module holding this code — the
   * package's `dist/`, or the directory of a bundle that inlines it (which must ship that file).
   */
  workerUrl?: URL;
  /** Old-generation heap cap of a worker; past it the worker dies and the call fails open. */
  maxHeapMb?: number;
  logger?: Logger;
}

function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

export class EnginePool implements Engine {
  readonly #timeoutMs: number;
  readonly #size: number;
  readonly #inlineMax: number;
  readonly #workerUrl: URL;
  readonly #maxHeapMb: number;
  readonly #logger: Logger | undefined;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  readonly #counts = {
    jobs_inline: 0,
    jobs_in_workers: 0,
    timeouts: 0,
    cancelled: 0,
    failed: 0,
    workers_started: 0,
    workers_stopped: 0,
  };

  constructor(options: EnginePoolOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_ENGINE_TIMEOUT_MS;
    this.#size = Math.max(1, options.size ?? defaultPoolSize());
    this.#inlineMax = options.inlineMaxChars ?? DEFAULT_INLINE_MAX_CHARS;
    this.#workerUrl = options.workerUrl ?? new URL("./engine-worker.js", import.meta.url);
    this.#maxHeapMb = options.maxHeapMb ?? defaultMaxHeapMb();
    this.#logger = options.logger;
  }

  run<J extends EngineJob>(job: J, signal?: AbortSignal): Promise<EngineOutcome<Answer<J>>> {
    const budgetMs = engineBudgetMs(this.#timeoutMs, job.input.length);
    if (signal?.aborted) {
      this.#counts.cancelled++;
      return Promise.resolve(failure("cancelled", budgetMs, "cancelled before it started"));
    }
    if (this.#closed) {
      this.#counts.failed++;
      return Promise.resolve(failure("failed", budgetMs, "the engine pool is closed"));
    }
    if (job.input.length <= this.#inlineMax) {
      this.#counts.jobs_inline++;
      const outcome = runInline(job, budgetMs);
      if (!outcome.ok) this.#counts.failed++;
      return Promise.resolve(outcome);
    }
    this.#counts.jobs_in_workers++;
    return new Promise((resolve) => {
      const p: Pending = {
        id: this.#nextId++,
        job,
        budgetMs,
        resolve: resolve as Pending["resolve"],
        done: false,
      };
      if (signal) {
        p.signal = signal;
        p.onAbort = () => this.#finish(p, failure("cancelled", budgetMs, "cancelled by the client"));
        signal.addEventListener("abort", p.onAbort, { once: true });
      }
      this.#queue.push(p);
      if (this.#slots.some((s) => s.ready)) this.#armWait(p);
      this.#pump();
    });
  }

  stats(): EngineStats {
    return {
      mode: "workers",
      budget_ms: this.#timeoutMs,
      pool_size: this.#size,
      workers_live: this.#slots.length,
      workers_busy: this.#slots.filter((s) => s.current).length,
      ...this.#counts,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const p of [...this.#queue, ...this.#slots.flatMap((s) => (s.current ? [s.current] : []))])
      this.#finish(p, failure("failed", p.budgetMs, "the server is shutting down"));
    const slots = this.#slots.splice(0);
    await Promise.all(slots.map((s) => this.#stop(s)));
  }

  /** Bounds the wait behind busy workers (only once a worker is up: start-up is not charged). */
  #armWait(p: Pending): void {
    p.waitTimer ??= setTimeout(
      () => this.#finish(p, failure("timeout", p.budgetMs, "no worker became free within the budget")),
      p.budgetMs,
    );
  }

  #pump(): void {
    if (this.#closed) return;
    for (const slot of this.#slots) {
      if (!slot.ready || slot.current) continue;
      const p = this.#queue.shift();
      if (!p) break;
      this.#dispatch(slot, p);
    }
    const booting = this.#slots.filter((s) => !s.ready).length;
    for (let want = this.#queue.length - booting; want > 0 && this.#slots.length < this.#size; want--)
      this.#spawn();
  }

  #dispatch(slot: Slot, p: Pending): void {
    clearTimeout(p.waitTimer);
    slot.current = p;
    p.slot = slot;
    p.runTimer = setTimeout(
      () => this.#finish(p, failure("timeout", p.budgetMs, `the engine took longer than ${p.budgetMs} ms`)),
      p.budgetMs,
    );
    slot.worker.ref();
    slot.worker.postMessage({ id: p.id, job: p.job } satisfies JobMessage);
  }

  #finish(p: Pending, outcome: EngineOutcome<unknown>): void {
    if (p.done) return;
    p.done = true;
    clearTimeout(p.waitTimer);
    clearTimeout(p.runTimer);
    if (p.signal && p.onAbort) p.signal.removeEventListener("abort", p.onAbort);
    const queued = this.#queue.indexOf(p);
    if (queued >= 0) this.#queue.splice(queued, 1);
    if (!outcome.ok) {
      if (outcome.why === "timeout") this.#counts.timeouts++;
      else if (outcome.why === "cancelled") this.#counts.cancelled++;
      else this.#counts.failed++;
    }
    const slot = p.slot;
    if (slot && slot.current === p) {
      slot.current = undefined;
      if (outcome.ok || !this.#slots.includes(slot)) slot.worker.unref();
      // A worker still running a call nobody waits for is stopped, not left to burn a core.
      else if (outcome.why !== "failed") void this.#retire(slot);
      else slot.worker.unref();
    }
    p.resolve(outcome);
    this.#pump();
  }

  #spawn(): void {
    let slot: Slot;
    try {
      slot = openSlot(this.#workerUrl, this.#maxHeapMb, this.#logger, {
        message: (msg) => this.#onMessage(slot, msg),
        exit: (code) => this.#onExit(slot, code),
        bootTimeout: () => void this.#retire(slot),
      });
    } catch (err) {
      this.#bootFailed(`cannot start an engine worker: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.#counts.workers_started++;
    this.#slots.push(slot);
  }

  #onMessage(slot: Slot, msg: WorkerMessage): void {
    if ("ready" in msg) {
      slot.ready = true;
      clearTimeout(slot.bootTimer);
      for (const p of this.#queue) this.#armWait(p);
      this.#pump();
      if (!slot.current) slot.worker.unref();
      return;
    }
    const p = slot.current;
    if (!p || p.id !== msg.id) return;
    if (!msg.ok)
      this.#logger?.warn(`the engine failed on ${p.job.op} (input passed through): ${msg.message}`);
    this.#finish(p, msg.ok ? { ok: true, value: msg.answer } : failure("failed", p.budgetMs, msg.message));
  }

  #onExit(slot: Slot, code: number): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return; // retired on purpose
    this.#slots.splice(index, 1);
    clearTimeout(slot.bootTimer);
    const why = slot.lastError ?? `exit code ${code}`;
    this.#logger?.warn(`engine worker stopped unexpectedly (${why}); a new one starts on demand`);
    if (slot.current) this.#finish(slot.current, failure("failed", slot.current.budgetMs, why));
    if (!slot.ready) this.#bootFailed(`the engine worker could not start (${why})`);
    this.#pump();
  }

  /** No worker could start: the calls waiting for one fail open now rather than wait forever. */
  #bootFailed(message: string): void {
    this.#logger?.error(message);
    if (this.#slots.some((s) => s.ready)) return;
    for (const p of [...this.#queue]) this.#finish(p, failure("failed", p.budgetMs, message));
  }

  async #retire(slot: Slot): Promise<void> {
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    const running = slot.current;
    slot.current = undefined;
    if (running)
      this.#finish(running, failure("failed", running.budgetMs, slot.lastError ?? "worker stopped"));
    if (!slot.ready) this.#bootFailed(slot.lastError ?? "the engine worker did not start");
    await this.#stop(slot);
    this.#pump();
  }

  async #stop(slot: Slot): Promise<void> {
    clearTimeout(slot.bootTimer);
    this.#counts.workers_stopped++;
    try {
      await slot.worker.terminate();
    } catch (err) {
      this.#logger?.warn(
        `stopping an engine worker failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}
