// The store the server uses: the local store (SQLite or memory) first, and optionally a team store
// behind it. Contract:
// - put: the local store is written first and decides success (its errors are the put's errors);
//   the same original is then written through to the team store. A team store that is away, or
//   that fails, never fails the put: while the link is down the original waits in a bounded
//   in-memory backlog (oldest dropped first past `backlogBytes`) and is written when the link is
//   back; a put never waits on a link already known to be down (only, boundedly, on the first
//   connection still being made, and no longer than until that attempt succeeds or fails).
// - get: a local hit never touches the network. A local miss asks the team store (bounded waits),
//   caches what it finds locally, and passes on its verdicts: null (unknown), handle_expired,
//   store_corrupt, store_unavailable.
// - without a team store it is exactly the local store, seen asynchronously.
import type { AsyncCcrStore } from "./async.js";
import { isCcrStoreError } from "./errors.js";
import { asPrepared } from "./handle.js";
import type { TeamStatus, TeamStore } from "./team.js";
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
  local: CcrStore;
  team?: TeamStore | undefined;
  logger?: TieredLogger;
  /** Bytes of originals held for a later write-through while the team store is away. Default 64 MiB. */
  backlogBytes?: number;
}

/** The local store's figures, plus the team link (null without a team store). */
export interface TieredStats extends CcrStats {
  team: (TeamStatus & { backlog: number }) | null;
}

export interface TieredStore extends AsyncCcrStore {
  readonly local: CcrStore;
  readonly team: TeamStore | undefined;
  stats(): Promise<TieredStats>;
  /** Write the backlog through now (also done on every reconnect); resolves when it is empty or the link fails. */
  flush(): Promise<void>;
}

interface Pending {
  bytes: Uint8Array;
  meta: CcrMeta | undefined;
}

const DEFAULT_BACKLOG_BYTES = 64 * 1024 * 1024;
const silent: TieredLogger = { info() {}, warn() {} };

export function openTieredStore(opts: TieredStoreOptions): TieredStore {
  const { local, team } = opts;
  const logger = opts.logger ?? silent;
  const backlogLimit = opts.backlogBytes ?? DEFAULT_BACKLOG_BYTES;
  const backlog = new Map<string, Pending>();
  let backlogBytes = 0;
  let dropped = 0;
  let draining: Promise<void> | undefined;

  // Settles at the team link's first change of state (up, or known to be down).
  let firstVerdictSeen: (() => void) | undefined;
  const firstVerdict = new Promise<"verdict">((resolve) => {
    firstVerdictSeen = () => resolve("verdict");
  });

  const enqueue = (original: PreparedOriginal, meta: CcrMeta | undefined): void => {
    const { handle } = original;
    if (backlog.has(handle)) return;
    // A copy: the caller may reuse its buffer long before the link is back.
    const bytes = new Uint8Array(original.bytes);
    if (bytes.byteLength > backlogLimit) {
      dropped += 1;
      return;
    }
    backlog.set(handle, { bytes, meta });
    backlogBytes += bytes.byteLength;
    for (const [oldest, p] of backlog) {
      if (backlogBytes <= backlogLimit) break;
      backlog.delete(oldest);
      backlogBytes -= p.bytes.byteLength;
      dropped += 1;
    }
  };

  const writeThrough = async (original: PreparedOriginal, meta?: CcrMeta): Promise<void> => {
    if (!team) return;
    // While the first connection is still being made the put waits for it (bounded); once the
    // link is known to be down it does not wait at all.
    const state = team.status().state;
    if (state === "down" || state === "closed") return enqueue(original, meta);
    try {
      const put = team.put(original, meta);
      if (state === "connecting") {
        // The first attempt may fail long before the put's own bound runs out (a refused
        // connection): then stop waiting at once. The abandoned put settles on its own.
        put.catch(() => undefined);
        if ((await Promise.race([put.then(() => "stored" as const), firstVerdict])) !== "stored") {
          if (team.status().state !== "ready") return enqueue(original, meta);
          await put;
        }
      } else await put;
    } catch (err) {
      if (isCcrStoreError(err, "store_unavailable")) return enqueue(original, meta);
      // The team store refused these bytes for good (too large for it, out of memory): they stay local.
      logger.warn(
        `${original.handle} stays in the local store only: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };

  const drain = (): Promise<void> => {
    draining ??= (async () => {
      try {
        while (team && backlog.size > 0 && team.status().state === "ready") {
          const [handle, p] = backlog.entries().next().value as [string, Pending];
          try {
            await team.put(p.bytes, p.meta);
          } catch (err) {
            if (isCcrStoreError(err, "store_unavailable")) return;
            logger.warn(
              `${handle} stays in the local store only: ${err instanceof Error ? err.message : String(err)}`,
            );
          }
          if (backlog.get(handle) === p) {
            backlog.delete(handle);
            backlogBytes -= p.bytes.byteLength;
          }
        }
        if (dropped > 0) {
          logger.warn(
            `${dropped} original(s) stored while the team store was away exceeded the backlog and stay local only`,
          );
          dropped = 0;
        }
      } finally {
        draining = undefined;
      }
    })();
    return draining;
  };

  team?.onState((state) => {
    firstVerdictSeen?.();
    if (state === "ready" && backlog.size > 0) void drain();
  });

  return {
    local,
    team,

    async put(original: OriginalInput, meta?: CcrMeta): Promise<PutResult> {
      // Prepared here so the local and the team store share one encoding and one hash.
      const prepared = asPrepared(original);
      const result = local.put(prepared, meta);
      await writeThrough(prepared, meta);
      return result;
    },

    async get(handle: string): Promise<CcrRecord | null> {
      const found = local.get(handle);
      if (found || !team) return found;
      const remote = await team.get(handle);
      if (remote) {
        try {
          local.put(remote.original, {
            ...(remote.kind !== null ? { kind: remote.kind } : {}),
            ...(remote.producer !== null ? { producer: remote.producer } : {}),
            ...(remote.tokensIn !== null ? { tokensIn: remote.tokensIn } : {}),
            ...(remote.tokensOut !== null ? { tokensOut: remote.tokensOut } : {}),
            createdAt: remote.createdAt,
          });
        } catch (err) {
          // Not cached (the local store is full, say); the bytes are still good to return.
          logger.warn(
            `${remote.handle} from the team store not cached locally: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }
      return remote;
    },

    async has(handle: string): Promise<boolean> {
      if (local.has(handle)) return true;
      return team ? team.has(handle) : false;
    },

    async stats(): Promise<TieredStats> {
      const s = local.stats();
      return { ...s, team: team ? { ...team.status(), backlog: backlog.size } : null };
    },

    flush: drain,

    async close(): Promise<void> {
      if (backlog.size > 0) {
        logger.warn(
          `${backlog.size} original(s) were never written to the team store (it was away); they remain in the local store`,
        );
        backlog.clear();
        backlogBytes = 0;
      }
      try {
        local.close();
      } finally {
        await team?.close();
      }
    },
  };
}
