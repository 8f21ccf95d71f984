// The engine worker thread's script, bundled beside cli.js as dist/engine-worker.js. Contract:
// importing it inside a worker thread starts the worker (see @caveman/mcp-server's EnginePool);
// it carries the engine and nothing of the server, stores or transport.
import { createRequire } from "node:module";

// The engine is its own file beside this one, loaded on first use (tsup.config.ts). A worker loads
// it before it says it is ready: the pool charges a fresh worker's start-up to no call, while a
// load inside the first job would count against that job's budget.
createRequire(import.meta.url)("./engine.js");
await import("@caveman/mcp-server/engine-worker");
