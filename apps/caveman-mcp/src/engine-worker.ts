// The engine worker thread's script, bundled beside cli.js as dist/engine-worker.js. Contract:
// importing it inside a worker thread starts the worker (see @caveman/mcp-server's EnginePool);
// it carries the engine and nothing of the server, stores or transport.
import "@caveman/mcp-server/engine-worker";
