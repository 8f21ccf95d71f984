// The hook's worker thread, bundled beside cli.js as dist/hook-worker.js. Contract: started by
// hookEntry.ts with a gated event, it runs the full path (engine, keep, store) and posts one
// HookAnswer; the main thread stays free to end the process at the deadline, even while this
// thread is inside a synchronous compress or still loading the engine. Started by the server's
// hook service (hookService.ts) with `{ serve: true }`, it stays up and answers each posted
// `{ id, job }` with `{ id, answer }`, so the engine and the tokenizer load once per server.
import { parentPort, workerData } from "node:worker_threads";
import { type HookAnswer, hookEvent } from "./commands/hook.js";
import type { HookJob } from "./hookEntry.js";

/** What the service posts to a serving worker, and what it posts back. */
interface ServedJob {
  id: number;
  job: HookJob;
}
export interface ServedAnswer {
  id: number;
  answer: HookAnswer;
}

function run(job: HookJob): Promise<HookAnswer> {
  // This binary starts itself by argv[1] (the wrapped command's `caveman-mcp run`, the background
  // sender); in a worker argv[1] is hook-worker.js, which is not a command.
  if (job.script) process.argv[1] = job.script;
  return hookEvent(job.command, job.config, job.text, job.deadline, job.argv);
}

const data = workerData as HookJob | { serve: true };
if ("serve" in data) {
  parentPort?.on("message", (m: ServedJob) => {
    void run(m.job).then((answer) => parentPort?.postMessage({ id: m.id, answer } satisfies ServedAnswer));
  });
} else {
  void run(data).then((answer) => parentPort?.postMessage(answer));
}
