// The hook's side of the one write path: a store that keeps originals locally and queues them
// for the team store, and the background sender a short-lived process starts when nobody sends.
// Kept apart from stores.ts so that a hook loads no network code (the team store's client lives
// behind @caveman/ccr-store/redis and is only loaded by the processes that connect).
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { type CcrStore, openQueueingStore, type QueueingStore, teamTarget } from "@caveman/ccr-store";
import { openSqliteStore } from "@caveman/ccr-store/sqlite";
import type { Config } from "./config.js";
import { ensureDir } from "./dirs.js";

/**
 * A short-lived process's store (the hook): the SQLite file, and with a team store configured
 * every put queued in its outbox for a sender, without loading any network code. Throws what
 * openSqliteStore throws; there is no memory fallback (a handle would die with the process).
 */
export function openQueuedOriginals(
  config: Config,
  opts: { busyTimeoutMs: number },
): CcrStore & Partial<Pick<QueueingStore, "needsSender" | "claimSender">> {
  if (config.store.kind !== "sqlite")
    throw new Error("the store is in memory (--ephemeral): a handle would die with this process");
  ensureDir(dirname(config.store.path));
  const local = openSqliteStore({
    path: config.store.path,
    busyTimeoutMs: opts.busyTimeoutMs,
    ...(config.sqliteBinding ? { nativeBinding: config.sqliteBinding } : {}),
  });
  return config.team ? openQueueingStore({ local, target: teamTarget(config.team.url) }) : local;
}

/** How long a started sender counts as on its way before another process may start one. */
const SENDER_CLAIM_MS = 30_000;

/**
 * Start `caveman-mcp flush` in the background when originals wait for the team store and no
 * process sends them (a hook-only set-up, a CLI run while the server is away). Detached, with no
 * stdio, so the host waiting on this process is not held up; `flags` are this process's global
 * flags (its argv without the subcommand and operands), so it opens the same stores.
 */
export function startSenderIfNeeded(
  store: Partial<Pick<QueueingStore, "needsSender" | "claimSender">> | undefined,
  flags: readonly string[],
  env?: Readonly<Record<string, string | undefined>>,
): void {
  try {
    if (!store?.needsSender?.()) return;
    store.claimSender?.(SENDER_CLAIM_MS);
    // `env`: the environment the flags were read with (a hook's, when a server runs its job).
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1] ?? "", ...flags, "flush"], {
      detached: true,
      stdio: "ignore",
      ...(env ? { env } : {}),
    });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // Nothing is lost: the rows stay queued for the next sender.
  }
}

/** argv (after the script) without the subcommand `name` and the `operands` that follow it. */
export function globalFlags(argv: readonly string[], name: string, operands: number): string[] {
  const at = argv.indexOf(name);
  return at < 0 ? [...argv] : [...argv.slice(0, at), ...argv.slice(at + 1 + operands)];
}

/** After a process that queued originals has closed its stores: start a sender if none runs. */
export function startSenderAfterClose(config: Config, flags: readonly string[]): void {
  if (!config.team || config.store.kind !== "sqlite") return;
  let view: ReturnType<typeof openQueuedOriginals> | undefined;
  try {
    view = openQueuedOriginals(config, { busyTimeoutMs: 1000 });
    startSenderIfNeeded(view, flags);
  } catch {
    // The store cannot be opened now: the rows wait for the next sender.
  } finally {
    try {
      view?.close();
    } catch {
      // Nothing to flush.
    }
  }
}
