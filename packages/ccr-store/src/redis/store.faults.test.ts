// The team store's faults: a redis-server that is away, killed, restarted, that drops our
// connection or stalls.
import { describe, expect, it } from "vitest";
import { useTeamStores } from "../../test/teamStores.js";
import { computeHandle } from "../handle.js";
import { openRedisStore } from "./store.js";

const { redis, opened, open, raw } = useTeamStores();

describe("faults", () => {
  it("is unavailable, within its bounds, when nothing listens, and says so in its status", async () => {
    const store = openRedisStore({
      url: "redis://127.0.0.1:1",
      commandTimeoutMs: 300,
      connectTimeoutMs: 300,
    });
    opened.push(store);
    await expect(store.ready(300)).rejects.toMatchObject({ code: "store_unavailable" });
    // Bounded by the store's own 300 ms timeouts: an unbounded wait would fail the test's timeout.
    await expect(store.get(computeHandle("x"))).rejects.toMatchObject({ code: "store_unavailable" });
    await expect(store.put("x")).rejects.toMatchObject({ code: "store_unavailable" });
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

  // CLIENT PAUSE answers once the pause is in force, so the command under test surely meets a
  // stalled server (a DEBUG SLEEP sent on another connection could arrive after it, on a busy
  // machine). The server would answer after the pause: a rejection is the timeout at work.
  it("times out a command while the server stalls (CLIENT PAUSE), then works again", async () => {
    const store = open({ commandTimeoutMs: 300 });
    const { handle } = await store.put("patience");
    await raw().call("CLIENT", "PAUSE", "1500", "ALL");
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_unavailable" });
    await store.ready(10_000);
    expect(await store.get(handle)).not.toBeNull();
  });

  it("drops a link whose command timed out, so work does not pile up behind a stalled server", async () => {
    const store = open({ commandTimeoutMs: 300, maxBackoffMs: 100 });
    const { handle } = await store.put("stalled");
    const states: string[] = [];
    store.onState((state) => states.push(state));
    await raw().call("CLIENT", "PAUSE", "1500", "ALL");
    await expect(store.get(handle)).rejects.toMatchObject({ code: "store_unavailable" });
    // The timed-out command would stay queued on the socket (with its bytes) until the server
    // answers; the link is judged lost instead, and writers stop waiting on it.
    expect(store.status().state).toBe("down");
    await store.ready(10_000);
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
    // The diagnosis comes with the failed handshake (its own 500 ms connect timeout), which a busy
    // machine may deliver after the wait above: wait for it, bounded by the test's timeout.
    while (store.status().lastError === null) await new Promise((r) => setTimeout(r, 50));
    expect(store.status().lastError ?? "").toMatch(/TLS handshake failed.*redis:\/\//);
  });
});
