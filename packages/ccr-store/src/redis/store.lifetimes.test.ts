// The team store's lifetimes on an injected clock (and the Redis TTL backstop in real time), and
// its size cap.
import { describe, expect, it } from "vitest";
import { manualClock } from "../../test/helpers.js";
import { DAY, useTeamStores } from "../../test/teamStores.js";
import { computeHandle } from "../handle.js";
import { teamKeys } from "./store.js";

const { open, raw } = useTeamStores();

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
    expect(await raw().keys("caveman:ccr:v2:cap:*")).toHaveLength(2);
  });
});
