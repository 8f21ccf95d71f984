// Preloaded into a benchmarked server (`node --import`): every 100 ms it prints the longest
// event-loop delay of that interval to stderr as `caveman-bench-eld <ms>`, so the bench sees how
// long the server's own main thread was held, apart from the client's and the pipe's share.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

if (isMainThread) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  setInterval(() => {
    process.stderr.write(`caveman-bench-eld ${(h.max / 1e6).toFixed(1)}\n`);
    h.reset();
  }, 100).unref();
}
