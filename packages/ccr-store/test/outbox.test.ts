// Finding 7 on real parts: a redis-server, SQLite files, and processes that leave without
// closing. Originals stored while the team store is away wait in the SQLite file's outbox, not in
// a process's memory: another process on the same file sends them once it is back. A flushed or
// restarted-empty Redis heals itself: a miss is answered by whoever holds the handle locally.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openTieredStore, type TieredStore } from "../src/index.js";
import { openRedisStore } from "../src/redis.js";
import { openSqliteStore } from "../src/sqlite.js";
import { uniqueNamespace, useRedisServer } from "./backends.js";
import { originalFor } from "./children/originals.js";
import { runTeamChild, tempDir } from "./helpers.js";

const redis = useRedisServer();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function machine(ns: string, opts: { send?: boolean; db?: string } = {}): { store: TieredStore; db: string } {
  let db = opts.db;
  if (!db) {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    db = join(dir, "ccr.db");
  }
  const store = openTieredStore({
    local: openSqliteStore({ path: db }),
    team: openRedisStore({ url: redis.url, namespace: ns, commandTimeoutMs: 1000, maxBackoffMs: 100 }),
    ...(opts.send ? { send: true, sendEveryMs: 200 } : {}),
    healWaitMs: 5000,
  });
  cleanups.push(() => store.close());
  return { store, db };
}

/** A store that reads the team store only (an empty local file): what a third machine sees. */
async function fromTeam(ns: string, handle: string): Promise<string | null> {
  const { store } = machine(ns);
  await store.team!.ready(5000);
  const rec = await store.team!.get(handle);
  return rec ? Buffer.from(rec.original).toString("latin1") : null;
}

const text = (id: string, i: number) => Buffer.from(originalFor(id, i)).toString("latin1");

describe("the outbox in the local SQLite file", () => {
  it("survives a process that exits during an outage; another process sends it once Redis is back", async () => {
    const ns = uniqueNamespace();
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const db = join(dir, "ccr.db");
    await redis.kill();
    const child = await runTeamChild(["put", db, redis.url, ns, "outage", "12", "write"]);
    expect(child.code, child.stderr).toBe(0);
    const { handles, pending } = child.last as { handles: string[]; pending: number };
    expect(pending).toBe(12);
    await redis.restart();
    // Any process on the file sends: here a second child, then this one checks from a third store.
    const sender = await runTeamChild(["send", db, redis.url, ns]);
    expect(sender.last).toEqual({ sent: 12, pending: 0 });
    for (const [i, h] of handles.entries()) expect(await fromTeam(ns, h)).toBe(text("outage", i));
  });

  it("lets a short-lived process queue without touching the network, for a long-lived sender to deliver", async () => {
    const ns = uniqueNamespace();
    const { store, db } = machine(ns, { send: true });
    await store.team!.ready(5000);
    const child = await runTeamChild(["put", db, redis.url, ns, "hook", "5", "queue"]);
    expect(child.code, child.stderr).toBe(0);
    const { handles } = child.last as { handles: string[] };
    // The sender's next round (every 200 ms here) takes the rows the other process queued.
    for (let tries = 0; tries < 100 && store.pending() > 0; tries++)
      await new Promise((r) => setTimeout(r, 100));
    expect(store.pending()).toBe(0);
    for (const [i, h] of handles.entries()) expect(await fromTeam(ns, h)).toBe(text("hook", i));
  });
});

describe("a flushed or restarted-empty Redis", () => {
  it("heals on the next miss: another machine's get is answered by the holder's sender", async () => {
    const ns = uniqueNamespace();
    const a = machine(ns, { send: true });
    await a.store.team!.ready(5000);
    const { handle } = await a.store.put("made on machine A\n".repeat(100));
    await redis.cli(["flushall"]);
    const b = machine(ns);
    await b.store.team!.ready(5000);
    const rec = await b.store.get(handle);
    expect(rec && Buffer.from(rec.original).toString()).toBe("made on machine A\n".repeat(100));
  });

  it("heals when the holder reads its own copy: the team store's loss is noticed and the original sent again", async () => {
    const ns = uniqueNamespace();
    const a = machine(ns, { send: true });
    await a.store.team!.ready(5000);
    const { handle } = await a.store.put("read again on A");
    await redis.kill();
    await redis.restart();
    await a.store.team!.ready(5000);
    expect(await a.store.get(handle)).not.toBeNull();
    let back: string | null = null;
    for (let tries = 0; tries < 100 && back === null; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await fromTeam(ns, handle);
    }
    expect(back).toBe("read again on A");
  });
});
