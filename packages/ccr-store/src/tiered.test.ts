// The tiered store on real parts: a local store (memory and SQLite) in front of the Redis team
// store. Local first, write-through, fall back and cache on a miss, verdicts passed on, and a
// backlog that reaches the team store once it is back after an outage.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { uniqueNamespace, useRedisServer } from "../test/backends.js";
import { tempDir } from "../test/helpers.js";
import { computeHandle } from "./handle.js";
import { openMemoryStore } from "./memory.js";
import { openRedisStore, type RedisStoreOptions } from "./redis/store.js";
import { openSqliteStore } from "./sqlite/store.js";
import type { TeamStore } from "./team.js";
import { openTieredStore, type TieredStore } from "./tiered.js";

const redis = useRedisServer();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function team(namespace: string, opts: Partial<RedisStoreOptions> = {}): TeamStore {
  return openRedisStore({ url: redis.url, namespace, commandTimeoutMs: 500, maxBackoffMs: 100, ...opts });
}

function tiered(teamStore?: TeamStore, sqlite = false): TieredStore {
  let local = openMemoryStore();
  if (sqlite) {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    local = openSqliteStore({ path: join(dir, "ccr.db") });
  }
  const warnings: string[] = [];
  const store = openTieredStore({
    local,
    team: teamStore,
    logger: { info() {}, warn: (m) => warnings.push(m) },
  });
  cleanups.push(() => store.close());
  return store;
}

const text = (r: { original: Uint8Array } | null) => (r ? new TextDecoder().decode(r.original) : null);

describe("tiered store", () => {
  it("writes through to the team store and lets another machine's store resolve and cache the handle", async () => {
    const ns = uniqueNamespace();
    const here = tiered(team(ns), true);
    const there = tiered(team(ns), true);
    await here.team!.ready(2000);
    const { handle, created } = await here.put("made here", { kind: "log" });
    expect(created).toBe(true);
    expect(there.local.has(handle)).toBe(false);
    const rec = await there.get(handle);
    expect(text(rec)).toBe("made here");
    expect(rec?.kind).toBe("log");
    expect(there.local.has(handle)).toBe(true);
    expect(await there.has(handle)).toBe(true);
    expect(await there.get(computeHandle("nowhere"))).toBeNull();
  });

  it("answers local hits without the network, and is the local store when there is no team", async () => {
    const solo = tiered();
    const { handle } = await solo.put("only local");
    expect(text(await solo.get(handle))).toBe("only local");
    expect((await solo.stats()).team).toBeNull();

    const away = team(uniqueNamespace(), { url: "redis://127.0.0.1:1" });
    const withDeadTeam = tiered(away);
    const put = await withDeadTeam.put("local wins");
    expect(text(await withDeadTeam.get(put.handle))).toBe("local wins");
  });

  it("does not keep a put waiting on a first connection that has already failed", async () => {
    // The put starts while the first connection is being made; the refusal comes back at once, so
    // the put must not sit out the whole command timeout before keeping the original local. That
    // timeout is set past the test's own, so a put that waited for it fails the test, on any load.
    const away = tiered(team(uniqueNamespace(), { url: "redis://127.0.0.1:1", commandTimeoutMs: 600_000 }));
    const { handle } = await away.put("made while the team store refuses connections");
    expect(away.local.has(handle)).toBe(true);
    expect((await away.stats()).team).toMatchObject({ state: "down", backlog: 1 });
  });

  it("passes the team store's verdicts on: expired, and unavailable when it is needed but away", async () => {
    let now = 1_700_000_000_000;
    const ns = uniqueNamespace();
    const writer = tiered(team(ns, { clock: () => now, idleMs: 1000 }));
    await writer.team!.ready(2000);
    const { handle } = await writer.put("short");
    now += 5000;
    const reader = tiered(team(ns, { clock: () => now, idleMs: 1000 }));
    await expect(reader.get(handle)).rejects.toMatchObject({ code: "handle_expired" });

    const cut = tiered(team(ns, { url: "redis://127.0.0.1:1", connectTimeoutMs: 200 }));
    await expect(cut.get(handle)).rejects.toMatchObject({
      code: "store_unavailable",
      message: expect.stringMatching(/doctor/),
    });
  });

  it("keeps puts local while the team store is down and writes them through once it is back", async () => {
    const ns = uniqueNamespace();
    // A command timeout past the test's own: a put that waited on the dead team store fails the
    // test instead of passing on a fast machine and failing on a busy one.
    const here = tiered(team(ns, { commandTimeoutMs: 600_000 }));
    await here.team!.ready(2000);
    await redis.kill("SIGKILL");
    const { handle } = await here.put("written during the outage");
    expect((await here.stats()).team).toMatchObject({ backlog: 1 });
    await redis.restart();
    await here.team!.ready(5000);
    await here.flush();
    expect((await here.stats()).team).toMatchObject({ state: "ready", backlog: 0 });
    const there = tiered(team(ns));
    expect(text(await there.get(handle))).toBe("written during the outage");
  });
});
