// The outbox against a real 3-primary Redis Cluster: a put whose slot's primary is down waits in
// the SQLite outbox while the other primaries take theirs at once; once the primary is back
// (empty), the next round sends the rest, and a handle it lost heals on the next miss.
import { join } from "node:path";
import { startRedisCluster, type TestRedisCluster } from "@caveman/test-redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTieredStore, type TieredStore } from "../src/index.js";
import { openRedisStore, teamKeys } from "../src/redis.js";
import { openSqliteStore } from "../src/sqlite.js";
import { uniqueNamespace } from "./backends.js";
import { tempDir } from "./helpers.js";

let cluster: TestRedisCluster;
const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 120_000);
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await cluster?.stop();
});

function machine(ns: string, send = false): TieredStore {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const store = openTieredStore({
    local: openSqliteStore({ path: join(dir, "ccr.db") }),
    team: openRedisStore({ url: cluster.url, namespace: ns, commandTimeoutMs: 1500, maxBackoffMs: 200 }),
    ...(send ? { send: true, sendEveryMs: 300 } : {}),
    healWaitMs: 8000,
  });
  cleanups.push(() => store.close());
  return store;
}

describe("the outbox on a Redis Cluster", () => {
  it("holds a dead primary's puts and sends them when it is back; its lost handles heal on a miss", async () => {
    const ns = uniqueNamespace();
    const here = machine(ns, true);
    await here.team!.ready(30_000);
    const before = await here.put("stored before the primary died");
    const victim = await cluster.nodeOf(teamKeys(ns, before.handle)[0]);
    await cluster.nodes[victim]!.kill();
    const texts = Array.from({ length: 24 }, (_, i) => `put during the outage ${i}`);
    const handles: string[] = [];
    for (const t of texts) handles.push((await here.put(t)).handle);
    const onVictim: string[] = [];
    for (const h of handles) if ((await cluster.nodeOf(teamKeys(ns, h)[0])) === victim) onVictim.push(h);
    expect(onVictim.length).toBeGreaterThan(0);
    expect(here.pending()).toBeGreaterThanOrEqual(onVictim.length);
    expect(here.pending()).toBeLessThan(handles.length);
    await cluster.nodes[victim]!.restart();
    await cluster.settled();
    for (let tries = 0; tries < 200 && here.pending() > 0; tries++)
      await new Promise((r) => setTimeout(r, 100));
    expect(here.pending()).toBe(0);
    const there = machine(ns);
    await there.team!.ready(30_000);
    for (const [i, h] of handles.entries()) {
      const rec = await there.get(h);
      expect(rec && Buffer.from(rec.original).toString()).toBe(texts[i]);
    }
    // Stored before the primary died and lost with it: the holder's sender answers the miss.
    const healed = await there.get(before.handle);
    expect(healed && Buffer.from(healed.original).toString()).toBe("stored before the primary died");
  });
});
