// Test helpers for the team store's tests: this file's redis-server, and stores and plain
// clients on it that are closed after each test.
import { Redis } from "ioredis";
import { afterEach } from "vitest";
import { openRedisStore, type RedisStoreOptions } from "../src/redis/store.js";
import type { TeamStore } from "../src/team.js";
import { uniqueNamespace, useRedisServer } from "./backends.js";

export const DAY = 86_400_000;

/**
 * Starts a redis-server for the calling test file. `open` opens a store in a fresh namespace,
 * `raw` a plain client to look at and meddle with what the store wrote; both, and whatever a test
 * pushes on `opened`, are closed after each test.
 */
export function useTeamStores(): {
  redis: ReturnType<typeof useRedisServer>;
  opened: Array<{ close(): Promise<void> } | { quit(): Promise<unknown> }>;
  open(opts?: Partial<RedisStoreOptions>): TeamStore;
  raw(): Redis;
} {
  const redis = useRedisServer();
  const opened: Array<{ close(): Promise<void> } | { quit(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const c of opened.splice(0)) await ("close" in c ? c.close() : c.quit().catch(() => undefined));
  });

  function open(opts: Partial<RedisStoreOptions> = {}): TeamStore {
    const store = openRedisStore({ url: redis.url, namespace: uniqueNamespace(), ...opts });
    opened.push(store);
    return store;
  }

  /** A plain client to look at and meddle with what the store wrote. */
  function raw(): Redis {
    const client = new Redis(redis.port, "127.0.0.1", { maxRetriesPerRequest: 1 });
    opened.push(client);
    return client;
  }
  return { redis, opened, open, raw };
}
