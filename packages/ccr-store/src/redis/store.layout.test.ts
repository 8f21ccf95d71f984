// The team store on a real redis-server: key layout and bytes, write-once and tamper detection,
// namespaces.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../test/helpers.js";
import { DAY, useTeamStores } from "../../test/teamStores.js";
import { computeHandle } from "../handle.js";
import { openRedisStore, teamKeys } from "./store.js";

const { redis, opened, open, raw } = useTeamStores();

describe("keys and bytes", () => {
  it("writes the bytes under caveman:ccr:v2:<namespace>:{<handle>} with metadata and TTLs beside them", async () => {
    const clock = manualClock();
    const store = open({ namespace: "layout", clock: clock.now, idleMs: DAY, maxAgeMs: 3 * DAY });
    const original = new Uint8Array(randomBytes(4096));
    const { handle } = await store.put(original, { kind: "log", tokensIn: 7 });
    const [data, meta] = teamKeys("layout", handle);
    expect(data).toBe(`caveman:ccr:v2:layout:{${handle}}`);
    const r = raw();
    expect(Buffer.compare((await r.getBuffer(data))!, Buffer.from(original))).toBe(0);
    expect(await r.hgetall(meta)).toMatchObject({
      size: "4096",
      kind: "log",
      tin: "7",
      state: "live",
      hits: "0",
      stored: String(clock.now()),
      last: String(clock.now()),
    });
    const ttl = await r.pttl(data);
    expect(ttl).toBeGreaterThan(DAY - 1000);
    expect(ttl).toBeLessThanOrEqual(DAY + 60_000);
    expect(await r.pttl(meta)).toBeGreaterThan(ttl);
  });

  it("is write-once: a re-put of live bytes does not rewrite them", async () => {
    const store = open({ namespace: "once" });
    const { handle } = await store.put("write once");
    const [data] = teamKeys("once", handle);
    const r = raw();
    await r.setrange(data, 0, "W"); // same length, different bytes: a re-put must not hide this
    expect(await store.put("write once")).toEqual({ handle, created: false });
    expect((await r.get(data))?.startsWith("W")).toBe(true);
  });
});

describe("tampering", () => {
  it("refuses bytes that do not match their hash with store_corrupt, keeps refusing, and heals on re-put", async () => {
    const store = open({ namespace: "tamper" });
    const original = "the real original\n".repeat(100);
    const { handle } = await store.put(original);
    const [data, meta] = teamKeys("tamper", handle);
    const r = raw();
    await r.set(data, `${original.slice(0, -2)}X\n`);
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_corrupt" });
    // Quarantined: the bad bytes are gone and the handle says corrupt, not unknown.
    expect(await r.exists(data)).toBe(0);
    expect(await r.hget(meta, "state")).toBe("corrupt");
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_corrupt" });
    expect(await store.has(handle)).toBe(false);
    expect(await store.put(original)).toEqual({ handle, created: true });
    expect(new TextDecoder().decode((await store.get(handle))!.original)).toBe(original);
  });

  it("refuses a forged hash in the metadata and data without metadata", async () => {
    const store = open({ namespace: "forged" });
    const { handle } = await store.put("genuine");
    const [data, meta] = teamKeys("forged", handle);
    const r = raw();
    const fake = "forged bytes";
    await r.set(data, fake);
    await r.hset(
      meta,
      "sha256",
      (await import("node:crypto")).createHash("sha256").update(fake).digest("hex"),
    );
    await r.hset(meta, "size", String(fake.length));
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_corrupt" });

    const orphan = computeHandle("orphan");
    await r.set(teamKeys("forged", orphan)[0], "orphan");
    await expect(store.get(orphan)).rejects.toMatchObject({ code: "store_corrupt" });
  });
});

describe("namespaces", () => {
  it("keeps two namespaces on one server apart, stats included", async () => {
    const a = open({ namespace: "team-a" });
    const b = open({ namespace: "team-b" });
    const { handle } = await a.put("only in a");
    expect(await b.get(handle)).toBeNull();
    expect(await b.has(handle)).toBe(false);
    expect((await a.stats()).entries).toBe(1);
    expect((await b.stats()).entries).toBe(0);
    await b.put("only in a");
    expect((await raw().keys("caveman:ccr:v2:team-*")).sort()).toEqual(
      [...teamKeys("team-a", handle), ...teamKeys("team-b", handle)].sort(),
    );
  });

  it("takes the namespace from the URL when no option names one", async () => {
    const store = openRedisStore({ url: `${redis.url}/0?namespace=from-url` });
    opened.push(store);
    const { handle } = await store.put("url namespace");
    expect(await raw().exists(teamKeys("from-url", handle)[0])).toBe(1);
    expect(store.status().namespace).toBe("from-url");
  });
});
