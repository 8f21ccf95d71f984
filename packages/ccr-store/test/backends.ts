// The backends under test, for the contract suites that must hold for all alike: memory, Redis,
// and the SQLite backend on each driver that test/drivers.ts selects.
import { join } from "node:path";
import { startRedis, type TestRedis } from "@caveman/test-redis";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type AsyncCcrStore, toAsync } from "../src/async.js";
import { openMemoryStore } from "../src/memory.js";
import { openRedisStore } from "../src/redis/store.js";
import { openSqliteStore } from "../src/sqlite/store.js";
import type { CcrStore, StorePolicyOptions } from "../src/types.js";
import { driverOptions, testDrivers } from "./drivers.js";
import { tempDir } from "./helpers.js";

export const DAY = 24 * 60 * 60 * 1000;

export type OpenStore = (opts?: StorePolicyOptions) => CcrStore;

/** Every backend, each store closed (and its temp dir removed) after every test of the caller. */
export function useBackends(): Array<[string, OpenStore]> {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  const track = (store: CcrStore): CcrStore => {
    cleanups.unshift(() => store.close());
    return store;
  };
  return [
    ["memory", (opts) => track(openMemoryStore(opts))],
    ...testDrivers().map((driver): [string, OpenStore] => [
      `sqlite (${driver})`,
      (opts) => {
        const { dir, cleanup } = tempDir();
        cleanups.push(cleanup);
        return track(openSqliteStore({ path: join(dir, "ccr.db"), ...driverOptions(driver), ...opts }));
      },
    ]),
  ];
}

export function bytesOf(n: number, fill: (i: number) => number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = fill(i);
  return out;
}

export type OpenAsyncStore = (opts?: StorePolicyOptions) => AsyncCcrStore;

/**
 * Every backend seen through the asynchronous contract: the local ones above (via toAsync) and
 * the Redis team store on a real redis-server started for this file, each Redis store in a
 * namespace of its own. The shared contract suite runs on this list.
 */
export function useContractBackends(): Array<[string, OpenAsyncStore]> {
  const local = useBackends().map(([name, open]): [string, OpenAsyncStore] => [
    name,
    (opts) => toAsync(open(opts)),
  ]);
  const redis = useRedisServer();
  const stores: AsyncCcrStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  return [
    ...local,
    [
      "redis",
      (opts) => {
        // The contract is about what comes back, not how fast: a 10 MiB round trip on a busy
        // machine outlasts the 2 s production command timeout, so the suite sets its own.
        const store = openRedisStore({
          url: redis.url,
          namespace: uniqueNamespace(),
          commandTimeoutMs: 60_000,
          ...opts,
        });
        stores.push(store);
        return store;
      },
    ],
  ];
}

/** A redis-server for the calling test file: started before its tests, killed after them. */
export function useRedisServer(): TestRedis {
  let server: TestRedis | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const current = (): TestRedis => {
    if (!server) throw new Error("the redis-server of this file is not started yet");
    return server;
  };
  return {
    get port() {
      return current().port;
    },
    get url() {
      return current().url;
    },
    get dir() {
      return current().dir;
    },
    get caFile() {
      return current().caFile;
    },
    get pid() {
      return current().pid;
    },
    cli: (args, input) => current().cli(args, input),
    kill: (signal) => current().kill(signal),
    restart: () => current().restart(),
    stop: () => current().stop(),
  };
}

let namespaces = 0;
/** A namespace no other test of this run uses. */
export function uniqueNamespace(): string {
  namespaces += 1;
  return `t${process.pid}-${namespaces}`;
}
