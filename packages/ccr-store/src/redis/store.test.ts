// The team store's own promises on a real redis-server, beyond the shared contract: key layout,
// write-once, tamper detection, namespaces, lifetimes on an injected clock (and the Redis TTL
// backstop in real time), the size cap, and faults — a server that is away, killed, restarted,
// that drops our connection or stalls, a password refused, and TLS spoken to a plain server.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { uniqueNamespace, useRedisServer } from "../../test/backends.js";
import { manualClock } from "../../test/helpers.js";
import { computeHandle } from "../handle.js";
import type { TeamStore } from "../team.js";
import { openRedisStore, type RedisStoreOptions, teamKeys } from "./store.js";

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

const DAY = 86_400_000;

describe("keys and bytes", () => {
  it("writes the bytes under caveman:ccr:v1:<namespace>:<handle> with metadata and TTLs beside them", async () => {
    const clock = manualClock();
    const store = open({ namespace: "layout", clock: clock.now, idleMs: DAY, maxAgeMs: 3 * DAY });
    const original = new Uint8Array(randomBytes(4096));
    const { handle } = await store.put(original, { kind: "log", tokensIn: 7 });
    const [data, meta] = teamKeys("layout", handle);
    expect(data).toBe(`caveman:ccr:v1:layout:${handle}`);
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
    expect((await raw().keys("caveman:ccr:v1:team-*")).sort()).toEqual(
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

describe("lifetimes on an injected clock", () => {
  it("slides the idle window on get and on re-put, then says handle_expired, distinct from unknown", async () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, idleMs: 1000, maxAgeMs: DAY });
    const { handle } = await store.put("idle");
    clock.advance(900);
    expect(await store.get(handle)).not.toBeNull();
    clock.advance(900);
    expect(await store.put("idle")).toEqual({ handle, created: false });
    clock.advance(900);
    expect((await store.get(handle))?.hits).toBe(2);
    clock.advance(1001);
    expect(await store.has(handle)).toBe(false);
    await expect(store.get(handle)).rejects.toMatchObject({ code: "handle_expired" });
    await expect(store.get(handle)).rejects.toMatchObject({ code: "handle_expired" });
    expect(await store.get(computeHandle("never stored"))).toBeNull();
    // A new put starts a new life.
    expect(await store.put("idle")).toEqual({ handle, created: true });
    expect((await store.get(handle))?.hits).toBe(1);
  });

  it("ends a handle at its maximum age however often it is read", async () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, idleMs: 1000, maxAgeMs: 5000 });
    const { handle } = await store.put("busy");
    for (let t = 0; t < 5000; t += 800) {
      expect(await store.get(handle)).not.toBeNull();
      clock.advance(800);
    }
    clock.advance(200);
    await expect(store.get(handle)).rejects.toMatchObject({ code: "handle_expired" });
  });

  it("lets the Redis TTL back the rules up in real time, and still says expired afterwards", async () => {
    const store = open({ namespace: "ttl", idleMs: 150, maxAgeMs: 150, graceMs: 1 });
    const { handle } = await store.put("short-lived");
    const [data, meta] = teamKeys("ttl", handle);
    const r = raw();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await r.exists(data)).toBe(0);
    expect(await r.exists(meta)).toBe(1);
    await expect(store.get(handle)).rejects.toMatchObject({ code: "handle_expired" });
  });
});

describe("size cap", () => {
  it("refuses an original over max_bytes with original_too_large and writes nothing", async () => {
    const store = open({ namespace: "cap", maxOriginalBytes: 1024 });
    await expect(store.put(new Uint8Array(1025))).rejects.toMatchObject({ code: "original_too_large" });
    await expect(store.put("x".repeat(1025))).rejects.toMatchObject({ code: "original_too_large" });
    expect(await store.put(new Uint8Array(1024))).toMatchObject({ created: true });
    expect(await raw().keys("caveman:ccr:v1:cap:*")).toHaveLength(2);
  });
});

describe("faults", () => {
  it("is unavailable, within its bounds, when nothing listens, and says so in its status", async () => {
    const store = openRedisStore({
      url: "redis://127.0.0.1:1",
      commandTimeoutMs: 300,
      connectTimeoutMs: 300,
    });
    opened.push(store);
    await expect(store.ready(300)).rejects.toMatchObject({ code: "store_unavailable" });
    const t0 = Date.now();
    await expect(store.get(computeHandle("x"))).rejects.toMatchObject({ code: "store_unavailable" });
    await expect(store.put("x")).rejects.toMatchObject({ code: "store_unavailable" });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(store.status()).toMatchObject({
      state: "down",
      lastError: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("reconnects after CLIENT KILL and keeps answering", async () => {
    const store = open({ commandTimeoutMs: 1000 });
    const { handle } = await store.put("survives a kill");
    const states: string[] = [];
    store.onState((s) => states.push(s));
    await redis.cli(["CLIENT", "KILL", "TYPE", "normal"]);
    expect(new TextDecoder().decode((await store.get(handle))!.original)).toBe("survives a kill");
    await store.ready(2000);
    expect(store.status().state).toBe("ready");
  });

  // On a loaded machine the sleeper's fresh connection can reach the server after the command
  // under test, which then simply succeeds; a retry runs the race again (see ARCHITECTURE, team store).
  it("times out a command while the server sleeps (DEBUG SLEEP), then works again", {
    retry: 2,
  }, async () => {
    const store = open({ commandTimeoutMs: 300 });
    const { handle } = await store.put("patience");
    const sleeper = raw();
    const sleeping = sleeper.call("DEBUG", "SLEEP", "1");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const t0 = Date.now();
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_unavailable" });
    expect(Date.now() - t0).toBeLessThan(900);
    await sleeping;
    await store.ready(2000);
    expect(await store.get(handle)).not.toBeNull();
  });

  // On a loaded machine the sleeper's fresh connection can reach the server after the command
  // under test, which then simply succeeds; a retry runs the race again (see ARCHITECTURE, team store).
  it("drops a link whose command timed out, so work does not pile up behind a stalled server", {
    retry: 2,
  }, async () => {
    const store = open({ commandTimeoutMs: 300, maxBackoffMs: 100 });
    const { handle } = await store.put("stalled");
    const states: string[] = [];
    store.onState((state) => states.push(state));
    const sleeper = raw();
    const sleeping = sleeper.call("DEBUG", "SLEEP", "1");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_unavailable" });
    // The timed-out command would stay queued on the socket (with its bytes) until the server
    // answers; the link is judged lost instead, and writers stop waiting on it.
    expect(store.status().state).toBe("down");
    await sleeping;
    await store.ready(3000);
    expect(states).toEqual(["down", "ready"]);
    expect(await store.get(handle)).not.toBeNull();
  });

  it("survives the server killed with SIGKILL and restarted: unavailable meanwhile, then usable again", async () => {
    const store = open({ commandTimeoutMs: 300, maxBackoffMs: 100 });
    const events: string[] = [];
    store.onState((s, detail) => events.push(`${s}: ${detail}`));
    await store.put("before the crash");
    await redis.kill("SIGKILL");
    await expect(store.put("during the outage")).rejects.toMatchObject({ code: "store_unavailable" });
    await redis.restart();
    await store.ready(5000);
    // The restarted server is empty (no persistence): the old handle is unknown, new puts work.
    expect(await store.get(computeHandle("before the crash"))).toBeNull();
    const { handle } = await store.put("after the restart");
    expect(await store.get(handle)).not.toBeNull();
    expect(events.some((e) => e.startsWith("down:"))).toBe(true);
    expect(events.at(-1)).toMatch(/^ready: .*reachable again/);
  });

  it("refuses TLS spoken to a plain server with a message that says what to do", async () => {
    const store = openRedisStore({
      url: redis.url.replace("redis://", "rediss://"),
      commandTimeoutMs: 300,
      connectTimeoutMs: 500,
    });
    opened.push(store);
    const err = await store.ready(1500).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "store_unavailable" });
    expect(store.status().lastError ?? "").toMatch(/TLS handshake failed.*redis:\/\//);
  });
});

describe("TLS", () => {
  it("talks to a TLS server whose private CA it is given, and refuses it clearly without that CA", async () => {
    const { startRedis } = await import("@caveman/test-redis");
    const secure = await startRedis({ tls: true });
    try {
      expect(secure.url.startsWith("rediss://")).toBe(true);
      const trusted = openRedisStore({ url: secure.url, tlsCaFile: secure.caFile! });
      opened.push(trusted);
      await trusted.ready(3000);
      const { handle } = await trusted.put("over TLS");
      expect(new TextDecoder().decode((await trusted.get(handle))!.original)).toBe("over TLS");
      expect((await trusted.probe()).server).toBe("Redis");

      const untrusted = openRedisStore({ url: secure.url, commandTimeoutMs: 300, connectTimeoutMs: 500 });
      opened.push(untrusted);
      await expect(untrusted.ready(1500)).rejects.toMatchObject({ code: "store_unavailable" });
      expect(untrusted.status().lastError).toMatch(
        /TLS handshake failed \(.*certificate.*\).*CAVEMAN_CCR_TLS_CA/,
      );
      await expect(untrusted.get(handle)).rejects.toMatchObject({ code: "store_unavailable" });
    } finally {
      await secure.stop();
    }
  });
});

describe("auth", () => {
  it("uses a password from the option, never shows it, and names an authentication failure", async () => {
    const { startRedis } = await import("@caveman/test-redis");
    const secret = "s3cret-Pa55";
    const locked = await startRedis({ args: ["--requirepass", secret] });
    try {
      const good = openRedisStore({ url: locked.url, password: secret });
      opened.push(good);
      await good.ready(2000);
      expect(await good.put("authed")).toMatchObject({ created: true });
      const inUrl = openRedisStore({ url: `redis://:${secret}@127.0.0.1:${locked.port}` });
      opened.push(inUrl);
      await inUrl.ready(2000);
      expect(inUrl.status().url).toBe(`redis://:***@127.0.0.1:${locked.port}`);

      const bad = openRedisStore({ url: locked.url, password: "wrong", commandTimeoutMs: 300 });
      opened.push(bad);
      const err = (await bad.ready(1000).catch((e: unknown) => e)) as Error;
      expect(err).toMatchObject({ code: "store_unavailable" });
      // On a loaded machine the refusal can come after ready() gave up waiting: wait for it.
      for (let t = 0; t < 100 && !/authentication failed/.test(bad.status().lastError ?? ""); t++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bad.status().lastError).toMatch(/authentication failed/);
      for (const text of [err.message, JSON.stringify(bad.status()), JSON.stringify(inUrl.status())]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await locked.stop();
    }
  });
});
