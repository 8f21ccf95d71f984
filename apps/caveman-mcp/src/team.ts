// The team store of the binary (`--ccr-url`): opened from the config, its link changes told on
// stderr (a start with the server away is a loud warning that says what still works and what to
// run), and the `doctor` check. Contract: nothing here waits on the network except `checkTeam`,
// and then within a bound; the password never reaches a log line (only the masked URL does).
// The Redis code (and ioredis under it) loads only when a team store is configured, in the
// background as the link is made: a process without one never evaluates it.
import {
  CcrStoreError,
  type TeamLinkState,
  type TeamStatus,
  type TeamStore,
  type TeamUrl,
  teamTarget,
} from "@caveman/ccr-store";
import type { Logger } from "@caveman/mcp-server";
import type { Config } from "./config.js";

type StateListener = (state: TeamLinkState, detail: string) => void;

export function openTeam(config: Config, logger: Logger): TeamStore | undefined {
  const team = config.team;
  if (!team) return undefined;
  const onState: StateListener = (state, detail) => {
    if (state === "down") {
      logger.warn(
        `${detail}; compress keeps storing originals locally and writes them through when it is back; a retrieve that needs it fails with cave_store_unavailable; run \`caveman-mcp doctor\``,
      );
    } else if (state === "ready") logger.info(detail);
  };
  return lazyTeamStore(team.url, onState, async () => {
    const { openRedisStore } = await import("@caveman/ccr-store/redis");
    return openRedisStore({
      url: team.url,
      ...(team.tlsCaFile ? { tlsCaFile: team.tlsCaFile } : {}),
      onState,
    });
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A team store whose implementation is loaded by `open`, started now. Until it is there the link
 * is `connecting` (as the real one starts), calls wait for it, and listeners are handed on; when
 * it cannot be loaded the link is `down` with why, and every call rejects with store_unavailable.
 */
function lazyTeamStore(url: TeamUrl, onState: StateListener, open: () => Promise<TeamStore>): TeamStore {
  let real: TeamStore | undefined;
  let failure: string | undefined;
  let closed = false;
  const listeners: StateListener[] = [];
  const loading = open().then(
    (store) => {
      real = store;
      for (const listener of listeners) store.onState(listener);
      return store;
    },
    (err: unknown) => {
      failure = `team store ${url.masked} cannot be opened: ${message(err)}`;
      for (const listener of [onState, ...listeners]) listener("down", failure);
      throw new CcrStoreError("store_unavailable", failure, { cause: err });
    },
  );
  // Each caller sees the rejection through its own call; this one only keeps it from being unhandled.
  loading.catch(() => {});
  return {
    put: async (original, meta) => (await loading).put(original, meta),
    get: async (handle) => (await loading).get(handle),
    has: async (handle) => (await loading).has(handle),
    stats: async () => (await loading).stats(),
    probe: async () => (await loading).probe(),
    want: async (handle) => (await loading).want(handle),
    wanted: async (max) => (await loading).wanted(max),
    unwant: async (handles) => (await loading).unwant(handles),
    async ready(ms) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new CcrStoreError("store_unavailable", `team store ${url.masked} not ready in ${ms} ms`)),
          ms,
        );
      });
      try {
        const store = await Promise.race([loading, bound]);
        await store.ready(Math.max(0, ms - (Date.now() - started)));
      } finally {
        clearTimeout(timer);
      }
    },
    onState(listener) {
      if (real) real.onState(listener);
      else listeners.push(listener);
    },
    status(): TeamStatus {
      if (real) return real.status();
      return {
        url: url.masked,
        namespace: url.namespace,
        target: teamTarget(url),
        state: failure ? "down" : closed ? "closed" : "connecting",
        lastError: failure ?? null,
      };
    },
    async close() {
      closed = true;
      const store = await loading.catch(() => undefined);
      await store?.close();
    },
  };
}

/** One-line description of the team store for start lines: masked URL and namespace. */
export function describeTeam(team: TeamStore): string {
  const s = team.status();
  return `${s.url} (namespace ${s.namespace})`;
}

/** The `doctor` check: connect within a bound, round-trip, count the namespace. */
export async function checkTeam(team: TeamStore, boundMs = 3000): Promise<{ ok: boolean; detail: string }> {
  const where = describeTeam(team);
  try {
    await team.ready(boundMs);
    const { server, version } = await team.probe();
    const s = await team.stats();
    return { ok: true, detail: `${where}: ${server} ${version}, ${s.entries} entries, ${s.bytes} bytes` };
  } catch (err) {
    const why = team.status().lastError ?? (err instanceof Error ? err.message : String(err));
    return { ok: false, detail: `${where} unreachable: ${why}; the local store works without it` };
  }
}
