// The hook's worker thread, bundled beside cli.js as dist/hook-worker.js. Contract: started by
// hookEntry.ts with a gated event, it runs the full path (engine, keep, store) and posts one
// HookAnswer; the main thread stays free to end the process at the deadline, even while this
// thread is inside a synchronous compress or still loading the engine.
import { parentPort, workerData } from "node:worker_threads";
import { hookEvent } from "./commands/hook.js";
import type { HookJob } from "./hookEntry.js";

const job = workerData as HookJob;
// This binary starts itself by argv[1] (the wrapped command's `caveman-mcp run`, the background
// sender); in a worker argv[1] is hook-worker.js, which is not a command.
if (job.script) process.argv[1] = job.script;
void hookEvent(job.command, job.config, job.text, job.deadline, job.argv).then((answer) =>
  parentPort?.postMessage(answer),
);
