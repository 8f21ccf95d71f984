// The engine worker's entry (a `node:worker_threads` script). Contract: it loads the engine, says
// `{ ready: true }` once, then answers each `{ id, job }` with `{ id, ok: true, answer }` or, if
// the engine threw, `{ id, ok: false, message }`; it runs one job at a time and never writes to
// stdout. Stopping it is the pool's job (`worker.terminate()`): it keeps no state worth saving.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { type EngineJob, runJob } from "./jobs.js";

/**
 * Linux keeps a nice value per thread: this worker gives way to the main thread (the transport)
 * whenever both want the same core, so a busy engine delays no ping. Elsewhere, or where lowering
 * is refused, it is left as is.
 */
function yieldToMainThread(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // not Linux, or no /proc: same priority as the main thread
  }
}

export interface JobMessage {
  id: number;
  job: EngineJob;
}

export type WorkerMessage =
  | { ready: true }
  | { id: number; ok: true; answer: unknown }
  | { id: number; ok: false; message: string };

const port = parentPort;
if (port) {
  yieldToMainThread();
  port.on("message", ({ id, job }: JobMessage) => {
    let reply: WorkerMessage;
    try {
      reply = { id, ok: true, answer: runJob(job) };
    } catch (err) {
      reply = { id, ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies WorkerMessage);
}
