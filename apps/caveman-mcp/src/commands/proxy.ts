// `caveman-mcp proxy -- <command> [args...]`: a stdio MCP proxy around any MCP server. Contract:
// the wrapped server is spawned with our environment and working directory; every message passes
// byte-exact except large text results of tools/call (shrunk, originals in the CCR store, by the
// same rules as the hooks) and `caveman_retrieve`, which is added to its tool list and served here.
// stdin EOF, SIGTERM/SIGINT/SIGHUP or a client that hangs up stop the server and exit 0; a server
// that dies on its own is mirrored in our exit code (127 when it could not be started at all).
import { type CcrStore, type Outbox, openQueueingStore, teamTarget } from "@caveman/ccr-store";
import { kindAllowed, toolRefusal } from "@caveman/hooks";
import { inlineSyncRunner, keepSync } from "@caveman/keep";
import { createCavemanTools, Session, spawnWrapped, startProxy, ToolRegistry } from "@caveman/mcp-server";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { stderrLogger } from "../logger.js";
import { startSenderAfterClose } from "../queued.js";
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
  const logger = stderrLogger(process.stderr);
  if (config.hooks.settingsError)
    logger.warn(`${config.hooks.settingsError}; the proxy passes every result through unchanged`);
  // A sender while it runs; its shrink step stores synchronously: locally, queued for the team.
  const stores = openStores(config, logger, { send: true });
  const { store } = stores;
  const ccr = queueing(stores.ccr, config);
  const registry = new ToolRegistry({
    tools: createCavemanTools({ families: ["retrieve"], session: new Session(), ccr: stores.originals, store }),
    logger,
    maxResultBytes: config.maxResultBytes,
  });
  const child = spawnWrapped({
    command: command.command,
    args: command.args,
    env: { ...config.hooks.env },
    cwd: config.hooks.cwd,
  });
  const settings = config.hooks.settings;
  // The same tool rules as the hooks (our own tools are never touched, allow/deny, off). The proxy
  // is in the path of every answer anyway; a per-call deadline would only drop savings.
  const transform = (tool: string, text: string): string | null => {
    if (toolRefusal(tool, settings)) return null;
    if (Buffer.byteLength(text, "utf8") > settings.maxInputBytes) return null;
    const r = keepSync(
      {
        text,
        producer: tool,
        floorTokens: settings.floorTokens,
        minGain: settings.minGain,
        accept: (kind) => kindAllowed(kind, "output"),
      },
      { run: inlineSyncRunner, store: ccr },
    );
    return r.kept ? r.text : null;
  };
  const proxy = startProxy({
    stdin: process.stdin,
    stdout: process.stdout,
    upstream: child,
    transform,
    retrieve: registry,
    maxInboundBytes: config.maxInboundBytes,
    logger,
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => {
      child.kill(signal);
      void proxy.close("requested");
    });
  }
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
  const exit = await Promise.race([child.exited, delay(3000).then(() => null)]);
  if (exit === null) {
    child.kill("SIGKILL");
  }
  await stores.close();
  // Whatever the team store did not take before the end waits for the next sender.
  const argv = process.argv.slice(2);
  startSenderAfterClose(config, argv.slice(0, Math.max(0, argv.indexOf("proxy"))));
  if (reason !== "upstream_gone") return 0;
  const result = exit ?? (await child.exited);
  if (result.error) logger.error(`proxy: cannot start ${command.command}: ${result.error}`);
  else logger.warn(`proxy: the wrapped server exited (${result.signal ?? `code ${result.code}`})`);
  return result.code ?? 1;
}
