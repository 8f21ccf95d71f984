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
