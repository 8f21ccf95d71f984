// The team store on a real 3-primary Redis Cluster (redis-server --cluster-enabled yes on
// loopback): both keys of a handle share a slot, so every script runs on one node; handles
// spread over the primaries; a primary that dies fails only the handles of its slots, within
// the command bound, and after it comes back empty its handles are unknown until put again.
import { startRedisCluster, type TestRedisCluster } from "@caveman/test-redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueNamespace } from "../../test/backends.js";
import type { TeamStore } from "../team.js";
import { openRedisStore, teamKeys } from "./store.js";

let cluster: TestRedisCluster;
const stores: TeamStore[] = [];
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 120_000);
afterAll(async () => {
  for (const s of stores) await s.close();
  await cluster?.stop();
});

function open(): { store: TeamStore; namespace: string } {
  const namespace = uniqueNamespace();
  const store = openRedisStore({ url: cluster.url, namespace, commandTimeoutMs: 3000 });
  stores.push(store);
  return { store, namespace };
}

describe("team store on a Redis Cluster", () => {
  it("stores across the primaries, each handle's two keys in one slot, and reads every one back", async () => {
    const { store, namespace } = open();
    await store.ready(30_000);
    const handles: string[] = [];
    for (let i = 0; i < 40; i++) handles.push((await store.put(`original number ${i}\n`.repeat(50))).handle);
    const owners = new Set<number>();
    for (const [i, handle] of handles.entries()) {
      const [data, meta] = teamKeys(namespace, handle);
      const node = await cluster.nodeOf(data);
      expect(await cluster.nodeOf(meta)).toBe(node);
      owners.add(node);
      const got = await store.get(handle);
      expect(Buffer.from(got!.original).toString()).toBe(`original number ${i}\n`.repeat(50));
    }
    expect(owners.size).toBe(3);
    expect((await store.stats()).entries).toBe(40);
    expect((await store.probe()).server).toBe("Redis");
  });

  it("fails only a dead primary's handles (store_unavailable), and serves them again once put after its return", async () => {
    const { store, namespace } = open();
    await store.ready(30_000);
    const byNode = new Map<number, string>();
    const texts = new Map<string, string>();
    for (let i = 0; byNode.size < 3; i++) {
      const { handle } = await store.put(`spread ${i}`);
      texts.set(handle, `spread ${i}`);
      const node = await cluster.nodeOf(teamKeys(namespace, handle)[0]);
      if (!byNode.has(node)) byNode.set(node, handle);
    }
    const victim = 0;
    const other = 1;
    await cluster.nodes[victim]!.kill();
    await expect(store.get(byNode.get(victim)!)).rejects.toMatchObject({ code: "store_unavailable" });
    expect(await store.get(byNode.get(other)!)).not.toBeNull();
    await cluster.nodes[victim]!.restart();
    await cluster.settled();
    // Back without persistence: its handles are unknown, not corrupt, and a put heals them.
    let found: unknown;
    for (let tries = 0; tries < 50; tries++) {
      found = await store.get(byNode.get(victim)!).catch((e: unknown) => e);
      if (found === null) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(found).toBeNull();
    const raw = new Redis(cluster.ports[victim]!, "127.0.0.1");
    try {
      expect(await raw.dbsize()).toBe(0);
    } finally {
      raw.disconnect();
    }
    await store.put(texts.get(byNode.get(victim)!)!);
    expect(await store.get(byNode.get(victim)!)).not.toBeNull();
  });
});
