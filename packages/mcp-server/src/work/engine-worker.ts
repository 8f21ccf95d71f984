// The engine worker's entry (a `node:worker_threads` script). Contract: it loads the engine, says
// `{ ready: true }` once, then answers each `{ id, job }` with `{ id, ok: true, answer }` or, if
// the engine threw, `{ id, ok: false, message }`; it runs one job at a time and never writes to
// stdout. Stopping it is the pool's job (`worker.terminate()`): it keeps no state worth saving.
import { parentPort } from "node:worker_threads";
import { type EngineJob, runJob } from "./jobs.js";

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
