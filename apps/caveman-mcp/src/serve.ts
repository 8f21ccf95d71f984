// `caveman-mcp` with no subcommand: serve MCP on stdio. Contract: one line on stderr at start
// (version, store, roots, tool count); a refused implicit root (the working directory is `/` or
// home) costs only the edit tools — they answer `be_outside_roots` naming --root until the client
// offers a usable root — while retrieve and compress keep serving, since hooks hand out handles; SIGTERM, SIGINT, SIGHUP, stdin EOF, a stdin error and a
// client that hangs up all end in the same orderly stop — intake stops, in-flight work finishes
// or is answered with a shutdown error, stores are flushed — and exit code 0. An exception that
// escapes a request is logged and costs that request only; the process keeps serving.
import { createCavemanTools, EnginePool, Session, startServer } from "@caveman/mcp-server";
import { applyClientRoots, rootlessEditor, switchableEditor } from "./clientRoots.js";
import type { Config } from "./config.js";
import { startHookService } from "./hookService.js";
import { stderrLogger } from "./logger.js";
import { keptRecorder, retrieveRecorder } from "./savings.js";
import { describeStore, openEditor, openStores } from "./stores.js";
import { describeTeam } from "./team.js";
import { VERSION } from "./version.js";

export async function serve(config: Config): Promise<number> {
  const logger = stderrLogger(process.stderr);
  if (config.implicitRootRefusal) logger.warn(config.implicitRootRefusal);
  // Signals are taken from the first moment: a host that stops us while the stores are still
  // opening gets the same orderly exit 0 (the server then stops as soon as it is up).
  let handle: Awaited<ReturnType<typeof startServer>> | undefined;
  let stopRequested = false;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => {
      stopRequested = true;
      void handle?.close("requested");
    });
  }
  // A sender while it serves: originals queued by hooks, the CLI or an outage reach the team store.
  const stores = openStores(config, logger, { send: true });
  // One session per process: on stdio the process is the connection, in both eras (see
  // docs/decisions/server.md, "Protocol eras").
  const session = new Session();
  // Engine work runs in worker threads (started on first use) so a slow input never holds the
  // event loop; the worker script ships beside this bundle (tsup's second entry).
  const engine = new EnginePool({
    timeoutMs: config.engineTimeoutMs,
    workerUrl: new URL("./engine-worker.js", import.meta.url),
    logger,
  });
  const edit = config.families.includes("edit")
    ? switchableEditor(
        config.implicitRootRefusal
          ? rootlessEditor(config.implicitRootRefusal)
          : openEditor(config, stores.journalDir),
        stores.journalDir,
      )
    : undefined;
  const tools = createCavemanTools({
    families: config.families,
    session,
    engine,
    ccr: stores.originals,
    store: stores.store,
    chips: stores.chips,
    ...(edit ? { editor: edit.editor } : {}),
    onRetrieved: retrieveRecorder(config, "mcp"),
    onKept: keptRecorder(config, "mcp")("caveman_compress"),
  });

  process.on("uncaughtException", (err) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EPIPE") {
      void handle?.close("client_gone");
      return;
    }
    logger.error(`unexpected exception (server keeps running): ${err.stack ?? err.message}`);
  });
  process.on("unhandledRejection", (reason) => {
    logger.error(
      `unhandled rejection (server keeps running): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });

  handle = await startServer({
    stdin: process.stdin,
    stdout: process.stdout,
    tools,
    version: VERSION,
    logger,
    chips: stores.chips,
    maxInboundBytes: config.maxInboundBytes,
    maxResultBytes: config.maxResultBytes,
    // A call in flight at shutdown may run up to the engine's own deadline; a shorter grace would
    // turn the answer it is about to give into cave_shutting_down (the default 4 s keeps 5 s).
    shutdownGraceMs: Math.max(5000, config.engineTimeoutMs + 1000),
    // The client's roots replace only the implicit default (the working directory).
    ...(edit && config.sources.roots === "default"
      ? { onClientRoots: applyClientRoots(edit, config.home, logger) }
      : {}),
  });
  if (stopRequested) void handle.close("requested");
  // Hooks of this build hand their work to this process, where the engine stays loaded.
  const hooks = await startHookService({
    cavemanHome: config.hooks.cavemanHome,
    version: VERSION,
    workerUrl: new URL("./hook-worker.js", import.meta.url),
    logger,
  });
  const where = describeStore(stores.store);
  logger.info(
    `${VERSION} serving MCP on stdio; store ${where}${stores.team ? `; team ${describeTeam(stores.team)}` : ""}; chips ${config.chipDir}; roots ${config.implicitRootRefusal ? "none (see above)" : config.roots.join(", ")}; ${tools.length} tools`,
  );
  await handle.closed;
  hooks?.close();
  await engine.close();
  await stores.close();
  return 0;
}
