// One engine worker and the call it runs. Contract: a worker is started with a heap cap (past it
// the worker dies and its call fails open), whatever it prints to stdout is logged instead (only
// the transport writes to stdout), and a worker that has not loaded the engine within
// BOOT_TIMEOUT_MS is reported through `bootTimeout` so the pool can retire it.
import { totalmem } from "node:os";
import { Worker } from "node:worker_threads";
import type { Logger } from "../logger.js";
import type { EngineOutcome } from "./engine.js";
import type { WorkerMessage } from "./engine-worker.js";
import type { EngineJob } from "./jobs.js";

/** A worker that has not loaded the engine by then is taken as broken. */
const BOOT_TIMEOUT_MS = 30_000;
const MIB = 1024 * 1024;

/** A call waiting for, or running in, a worker. */
export interface Pending {
  id: number;
  job: EngineJob;
  budgetMs: number;
  resolve: (outcome: EngineOutcome<unknown>) => void;
  waitTimer?: NodeJS.Timeout;
  runTimer?: NodeJS.Timeout;
  slot?: Slot;
  signal?: AbortSignal;
  onAbort?: () => void;
  done: boolean;
}

export interface Slot {
  worker: Worker;
  ready: boolean;
  current?: Pending;
  lastError?: string;
  bootTimer?: NodeJS.Timeout;
}

export function defaultMaxHeapMb(): number {
  return Math.max(512, Math.min(4096, Math.floor(totalmem() / MIB / 4)));
}

interface SlotEvents {
  message(msg: WorkerMessage): void;
  exit(code: number): void;
  /** The worker did not load the engine in time (`lastError` says so). */
  bootTimeout(): void;
}

/** Start a worker (throws if it cannot be created); it is `ready` once it says so. */
export function openSlot(url: URL, maxHeapMb: number, logger: Logger | undefined, on: SlotEvents): Slot {
  const worker = new Worker(url, {
    // Only the transport writes to stdout: whatever a worker prints there is logged instead.
    stdout: true,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
  });
  const slot: Slot = { worker, ready: false };
  slot.bootTimer = setTimeout(() => {
    slot.lastError = `the engine worker did not start within ${BOOT_TIMEOUT_MS} ms`;
    on.bootTimeout();
  }, BOOT_TIMEOUT_MS);
  slot.bootTimer.unref();
  worker.stdout.on("data", (chunk: Buffer) =>
    logger?.warn(`engine worker wrote to stdout: ${chunk.toString("utf8").slice(0, 200)}`),
  );
  worker.on("message", (msg: WorkerMessage) => on.message(msg));
  worker.on("error", (err) => {
    slot.lastError = err.message;
  });
  worker.on("exit", (code) => on.exit(code));
  // A starting worker keeps the process alive (a one-shot CLI call waits for it); an idle one does not.
  return slot;
}
