// `caveman-mcp proxy -- <command> [args...]`: a stdio MCP proxy around any MCP server. Contract:
// the wrapped server is spawned with our environment and working directory, in a process group
// of its own; every message passes byte-exact except large results of tools/call (shrunk in the
// worker pool under the engine deadline, originals in the CCR store, by the same rules as the
// hooks) and `caveman_retrieve`, which is added to its tool list and served here. Our stderr never
// blocks (a host that does not read it cannot freeze us) and the server's stderr is drained and
// forwarded within a rate. stdin EOF, SIGTERM/SIGINT/SIGHUP or a client that hangs up stop the
// server's whole group (EOF, then SIGTERM, then SIGKILL, each after a bounded wait) and exit 0; a
// server that dies on its own is mirrored in our exit code (127 when it could not be started).
import { type CcrStore, type Outbox, openQueueingStore, teamTarget } from "@caveman/ccr-store";
import { kindAllowed, toolRefusal } from "@caveman/hooks";
import {
  createCavemanTools,
  EnginePool,
  engineRunner,
  keepTransform,
  nonBlockingStderr,
  relayStderr,
  Session,
  spawnWrapped,
  startProxy,
  ToolRegistry,
} from "@caveman/mcp-server";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { stderrLogger } from "../logger.js";
import { startSenderAfterClose } from "../queued.js";
import { keptRecorder, retrieveRecorder } from "../savings.js";
import { openStores } from "../stores.js";

/** The local store, with every put also queued for the team store when one is configured. */
function queueing(local: CcrStore, config: Config): CcrStore {
  const outbox = (local as { outbox?: Outbox }).outbox;
  if (!config.team || !outbox) return local;
  return openQueueingStore({ local: Object.assign(local, { outbox }), target: teamTarget(config.team.url) });
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export async function runProxy(
  command: Extract<Command, { name: "proxy" }>,
  config: Config,
): Promise<number> {
  const stderr = nonBlockingStderr();
  const logger = stderrLogger(stderr);
  if (config.hooks.settingsError)
    logger.warn(`${config.hooks.settingsError}; the proxy passes every result through unchanged`);
  // A sender while it runs; its shrink step stores synchronously: locally, queued for the team.
  const stores = openStores(config, logger, { send: true });
  const { store } = stores;
  const ccr = queueing(stores.ccr, config);
  const registry = new ToolRegistry({
    tools: createCavemanTools({
      families: ["retrieve"],
      session: new Session(),
      ccr: stores.originals,
      store,
      onRetrieved: retrieveRecorder(config, "proxy"),
    }),
    logger,
    maxResultBytes: config.maxResultBytes,
  });
  // Signals are ours from before the server starts: a stop that comes early still ends its group.
  let stopWith: ((signal: NodeJS.Signals) => void) | undefined;
  let early: NodeJS.Signals | undefined;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (stopWith) stopWith(signal);
      else early ??= signal;
    });
  }
  const child = spawnWrapped({
    command: command.command,
    args: command.args,
    env: { ...config.hooks.env },
    cwd: config.hooks.cwd,
  });
  relayStderr(child.stderr, stderr);
  // Compression off the main thread, under the server's engine deadline: pings and other
  // answers keep flowing while a large result is shrunk.
  const engine = new EnginePool({
    timeoutMs: config.engineTimeoutMs,
    workerUrl: new URL("./engine-worker.js", import.meta.url),
    logger,
  });
  const run = engineRunner(engine);
  const settings = config.hooks.settings;
  const journal = keptRecorder(config, "proxy");
  // The same tool rules as the hooks (our own tools are never touched, allow/deny, off). The proxy
  // is in the path of every answer anyway; a per-call deadline would only drop savings. Every
  // stand-in has a budget set from what the host would show (mcp-server's proxy/budget.ts).
  const transform = keepTransform({
    run,
    store: ccr,
    floorTokens: settings.floorTokens,
    minGain: settings.minGain,
    maxInputBytes: settings.maxInputBytes,
    refuse: (tool) => toolRefusal(tool, settings) !== null,
    accept: (kind) => kindAllowed(kind, "output"),
    onKept: journal,
  });
  const proxy: ReturnType<typeof startProxy> = startProxy({
    stdin: process.stdin,
    stdout: process.stdout,
    upstream: child,
    transform,
    retrieve: registry,
    maxInboundBytes: config.maxInboundBytes,
    logger,
    limits: {
      budgetTokens: config.hooks.settings.budgetTokens,
      ...(config.hooks.mcpLimitTokens ? { hostLimitTokens: config.hooks.mcpLimitTokens } : {}),
    },
  });
  stopWith = (signal) => {
    void child.stop({ signal });
    void proxy.close("requested");
  };
  if (early) stopWith(early);
  // The client is done: the server gets EOF, and a bounded time to answer what is in flight
  // before its group is stopped (one that ignores EOF, or whose grandchild holds its stdout open,
  // would otherwise keep us alive forever).
  process.stdin.once("end", () => void child.stop({ termAfterMs: 5000 }));
  process.on("uncaughtException", (err) => {
    if ((err as NodeJS.ErrnoException).code === "EPIPE") {
      void proxy.close("client_gone");
      return;
    }
    logger.error(`proxy: unexpected exception (still running): ${err.stack ?? err.message}`);
  });
  // The server's stdout normally ends before its exit is reported; if not, stop waiting soon after.
  void child.exited.then(async () => {
    await delay(1000);
    void proxy.close("upstream_gone");
  });
  const reason = await proxy.closed;
  // EOF first (the relay has ended the server's stdin), then the group gets SIGTERM, then SIGKILL.
  const exit = await child.stop();
  await engine.close();
  await stores.close();
  // Whatever the team store did not take before the end waits for the next sender.
  const argv = process.argv.slice(2);
  startSenderAfterClose(config, argv.slice(0, Math.max(0, argv.indexOf("proxy"))));
  if (reason !== "upstream_gone") return 0;
  const result = exit;
  if (result.error) logger.error(`proxy: cannot start ${command.command}: ${result.error}`);
  else logger.warn(`proxy: the wrapped server exited (${result.signal ?? `code ${result.code}`})`);
  return result.code ?? 1;
}
