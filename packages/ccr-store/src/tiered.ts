// The one store every path writes originals through: the local store (SQLite, or memory) first,
// and optionally a team store behind it. Contract:
// - put: the local store is written first and decides success (its errors are the put's
//   errors). With a team store, the handle is queued in the outbox before that (so a crash at any
//   point leaves either nothing or a row to send), then written through at once ("write" mode,
//   bounded, never waiting on a link known to be down) or left for a sender ("queue" mode: a
//   short-lived hook never touches the network). A row leaves the outbox only once the team
//   store holds the original, or refused it for good (too large for it, say). The outbox is the
//   local SQLite file's, shared by every process on it, so any process with `send` delivers what
//   any other queued; with a memory local store it lives as long as this process.
// - send: a sender (a long-lived server or proxy) runs a round every `sendEveryMs`, and when the
//   link comes back, and says so in a heartbeat others can read (`needsSender`).
// - get: a local hit never waits on the network (it checks, in the background and at most once
//   per handle every few minutes, that the team store still has it, and queues it again if not).
//   A local miss asks the team store, caches what it finds, and passes on its verdicts (null,
//   handle_expired, store_corrupt, store_unavailable); on a team miss it records a want, which any
//   sender holding the handle answers by uploading it again, and waits up to `healWaitMs` for that.
// - without a team store it is exactly the local store, seen asynchronously.
import type { AsyncCcrStore } from "./async.js";
import { isCcrStoreError } from "./errors.js";
import { asPrepared } from "./handle.js";
import { type Outbox, openMemoryOutbox } from "./outbox.js";
import type { TeamStatus, TeamStore } from "./team.js";
import { metaOf, type SendDeps, sendOne, sendRound } from "./tiered/send.js";
import type {
  CcrMeta,
  CcrRecord,
  CcrStats,
  CcrStore,
  OriginalInput,
  PreparedOriginal,
  PutResult,
} from "./types.js";

/** Where the log lines of the tiered store go (stderr in the binary). */
export interface TieredLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface TieredStoreOptions {
  /** The local store; a SQLite store brings its file's outbox. */
  local: CcrStore & { readonly outbox?: Outbox };
  team?: TeamStore | undefined;
  logger?: TieredLogger;
  /** "write" (default): write through at put time; "queue": only queue, for a sender to deliver. */
  putMode?: "write" | "queue";
  /** Deliver the outbox and answer misses while open (a long-lived process). Default false. */
  send?: boolean;
  /** Pause between send rounds. Default 5000 ms. */
  sendEveryMs?: number;
  /** How long a get waits after a team miss for a holder to upload the handle. Default 1500 ms. */
  healWaitMs?: number;
  clock?: () => number;
}

/** The local store's figures, plus the team link and how many originals wait for it. */
export interface TieredStats extends CcrStats {
  team: (TeamStatus & { backlog: number; durable: boolean }) | null;
}

export interface TieredStore extends AsyncCcrStore {
  readonly local: CcrStore;
  readonly team: TeamStore | undefined;
  stats(): Promise<TieredStats>;
  /** One send round now; resolves with the rows sent (0 without a team store). */
  flush(): Promise<number>;
  /** Originals queued for the team store (0 without one). */
  pending(): number;
  /** True when originals wait and no process has said it sends them. */
  needsSender(): boolean;
  /** Say that a sender is on its way (for `ms`), so that processes starting now do not start another. */
  claimSender(ms: number): void;
}

const silent: TieredLogger = { info() {}, warn() {} };
/** A local hit checks the team store for the same handle at most this often. */
const RECHECK_MS = 10 * 60_000;

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function openTieredStore(opts: TieredStoreOptions): TieredStore {
  const { local, team } = opts;
  const logger = opts.logger ?? silent;
  const clock = opts.clock ?? Date.now;
  const putMode = opts.putMode ?? "write";
  const sendEveryMs = opts.sendEveryMs ?? 5000;
  const healWaitMs = opts.healWaitMs ?? 1500;
  const target = team?.status().target ?? "";
  let outbox: Outbox = local.outbox ?? openMemoryOutbox(clock);
  const checked = new Map<string, number>();
  let round: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  /** Queue a row; a file that cannot hold one (read-only, older schema) hands over to memory. */
  const enqueue = (handle: string): void => {
    try {
      outbox.add(target, handle);
    } catch (err) {
      if (!outbox.durable) throw err;
      logger.warn(
        `the local store cannot keep the team store's outbox (${why(err)}); originals waiting for the team store are kept in memory and lost if this process exits first`,
      );
      outbox = openMemoryOutbox(clock);
      outbox.add(target, handle);
    }
  };
  const settle = (handle: string, outcome: "sent" | "away" | "refused"): void => {
    try {
      if (outcome === "away") outbox.later(target, handle, 0);
      else outbox.done(target, handle);
    } catch (err) {
      logger.warn(`the outbox row of ${handle} stays for a later round: ${why(err)}`);
    }
  };

  const deps = (): SendDeps => ({
    local,
    team: team!,
    outbox,
    target,
    warn: (m) => logger.warn(m),
    retryMs: sendEveryMs,
  });

  // Settles at the team link's first change of state (up, or known to be down).
  let firstVerdictSeen: (() => void) | undefined;
  const firstVerdict = new Promise<"verdict">((resolve) => {
    firstVerdictSeen = () => resolve("verdict");
  });

  const writeThrough = async (original: PreparedOriginal): Promise<void> => {
    if (!team) return;
    // While the first connection is still being made the put waits for it (bounded); once the
    // link is known to be down it does not wait at all: the row waits for a sender.
    const state = team.status().state;
    if (state === "down" || state === "closed") return;
    const put = sendOne(deps(), original.handle);
    if (state === "connecting") {
      // The first attempt may fail long before the put's own bound (a refused connection): then
      // stop waiting at once; the abandoned put settles its row on its own.
      void put.then((outcome) => settle(original.handle, outcome));
      await Promise.race([put, firstVerdict]);
      return;
    }
    settle(original.handle, await put);
  };

  const flush = (): Promise<number> => {
    if (!team || closed) return Promise.resolve(0);
    round ??= sendRound(deps()).finally(() => {
      round = undefined;
    });
    return round;
  };

  const beat = (): void => {
    try {
      outbox.heartbeat(clock() + 3 * sendEveryMs);
    } catch {
      // A read-only file: others cannot see us, and a spare sender costs only a round.
    }
  };
  if (team && opts.send) {
    beat();
    timer = setInterval(() => {
      beat();
      if (team.status().state === "ready") void flush();
    }, sendEveryMs);
    timer.unref();
  }
  team?.onState((state) => {
    firstVerdictSeen?.();
    if (state === "ready" && opts.send) void flush();
  });

  /** A local hit: does the team store still have it? If not, queue it again (a flushed Redis). */
  const recheck = (handle: string): void => {
    if (!team || putMode !== "write" || team.status().state !== "ready") return;
    const t = clock();
    if ((checked.get(handle) ?? Number.NEGATIVE_INFINITY) > t - RECHECK_MS) return;
    if (checked.size > 10_000) checked.clear();
    checked.set(handle, t);
    void team.has(handle).then(
      (held) => {
        if (held || closed) return;
        enqueue(handle);
        void flush();
      },
      () => checked.delete(handle),
    );
  };

  const cache = (remote: CcrRecord): void => {
    try {
      local.put(remote.original, metaOf(remote));
    } catch (err) {
      // Not cached (the local store is full, say); the bytes are still good to return.
      logger.warn(`${remote.handle} from the team store not cached locally: ${why(err)}`);
    }
  };

  return {
    local,
    team,

    async put(original: OriginalInput, meta?: CcrMeta): Promise<PutResult> {
      // Prepared here so the local and the team store share one encoding and one hash.
      const prepared = asPrepared(original);
      if (!team) return local.put(prepared, meta);
      enqueue(prepared.handle);
      let result: PutResult;
      try {
        result = local.put(prepared, meta);
      } catch (err) {
        settle(prepared.handle, "refused");
        throw err;
      }
      if (putMode === "write") await writeThrough(prepared);
      return result;
    },

    async get(handle: string): Promise<CcrRecord | null> {
      const found = local.get(handle);
      if (found) {
        recheck(found.handle);
        return found;
      }
      if (!team) return null;
      const remote = await team.get(handle);
      if (remote) {
        cache(remote);
        return remote;
      }
      if (healWaitMs <= 0 || team.status().state !== "ready") return null;
      // A miss: whoever holds it may upload it again (their sender answers wants).
      try {
        await team.want(handle);
        for (const deadline = clock() + healWaitMs; clock() < deadline; ) {
          await sleep(Math.min(250, healWaitMs));
          const healed = await team.get(handle);
          if (healed) {
            cache(healed);
            return healed;
          }
        }
      } catch (err) {
        if (!isCcrStoreError(err)) throw err;
      }
      return null;
    },

    async has(handle: string): Promise<boolean> {
      if (local.has(handle)) return true;
      return team ? team.has(handle) : false;
    },

    async stats(): Promise<TieredStats> {
      const s = local.stats();
      if (!team) return { ...s, team: null };
      return { ...s, team: { ...team.status(), backlog: outbox.size(target), durable: outbox.durable } };
    },

    flush,

    pending: () => (team ? outbox.size(target) : 0),

    needsSender: () => team !== undefined && outbox.size(target) > 0 && outbox.senderUntil() < clock(),

    claimSender: (ms) => outbox.heartbeat(clock() + ms),

    async close(): Promise<void> {
      if (closed) return;
      if (timer) clearInterval(timer);
      await round?.catch(() => undefined);
      // A sender's last round: what it queued itself (a proxy's last results) leaves with it.
      if (team && opts.send && team.status().state === "ready") await flush();
      closed = true;
      if (team && opts.send) {
        try {
          if (outbox.senderUntil() <= clock() + 3 * sendEveryMs) outbox.heartbeat(0);
        } catch {
          // Read-only: nobody saw the heartbeat either.
        }
      }
      if (team && !outbox.durable && outbox.size(target) > 0) {
        logger.warn(
          `${outbox.size(target)} original(s) were never written to the team store (it was away); they remain in the local store only`,
        );
      }
      try {
        local.close();
      } finally {
        await team?.close();
      }
    },
  };
}
