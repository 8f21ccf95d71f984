// How long chips live: FIFO eviction at capacity, the TTL on an injected clock, and chip ids.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeClock, tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { openChipStore } from "./store.js";
import { scriptedRandom } from "./testkit.test-helpers.js";

describe("FIFO eviction", () => {
  it("evicts the oldest chip past capacity, says which, and removes its file", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const store = openChipStore({ dir, capacity: 3, clock });
    const ids = [1, 2, 3].map((i) => {
      clock.advance(1);
      return store.saveContent({ tool: "t", content: `chip ${i}` }).chip!.id;
    });
    const res = store.saveContent({ tool: "t", content: "chip 4" });
    expect(res.evicted).toEqual([ids[0]]);
    expect(res.warnings).toContain(`oldest chip ${ids[0]} was evicted (queue max 3)`);
    expect(existsSync(join(dir, `chip-${ids[0]}.json`))).toBe(false);
    expect(store.list().map((c) => c.id)).toEqual([ids[1], ids[2], res.chip!.id]);
  });

  it("keeps FIFO order for saves within the same millisecond", () => {
    const store = openChipStore({ dir: tempDir(), capacity: 50, clock: () => 1_000_000 });
    const ids = Array.from(
      { length: 20 },
      (_, i) => store.saveContent({ tool: "t", content: `c${i}` }).chip!.id,
    );
    expect(store.list().map((c) => c.id)).toEqual(ids);
  });

  it("orders a chip saved right after a restart, in the same millisecond, after the older ones", () => {
    const dir = tempDir();
    const clock = () => 5_000;
    for (let round = 0; round < 20; round++) {
      const store = openChipStore({ dir, capacity: 1, clock });
      const { chip, evicted } = store.saveContent({ tool: "t", content: `round ${round}` });
      expect(store.list().map((c) => c.id)).toEqual([chip!.id]);
      if (round > 0) expect(evicted).toHaveLength(1);
    }
  });

  it("applies capacity when reopening a directory that holds more chips", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const big = openChipStore({ dir, capacity: 10, clock });
    const ids = Array.from({ length: 6 }, (_, i) => {
      clock.advance(5);
      return big.saveContent({ tool: "t", content: `c${i}` }).chip!.id;
    });
    const small = openChipStore({ dir, capacity: 4, clock });
    expect(small.loadReport.evicted).toEqual(ids.slice(0, 2));
    expect(small.list().map((c) => c.id)).toEqual(ids.slice(2));
    expect(readdirSync(dir).filter((n) => n.startsWith("chip-"))).toHaveLength(4);
  });
});

describe("TTL", () => {
  it("neither lists nor returns an expired chip, and removes its file", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const store = openChipStore({ dir, ttlMs: 1000, clock });
    const { chip } = store.saveContent({ tool: "t", content: "soon gone" });
    expect(chip?.expires_at).toBeDefined();
    clock.advance(999);
    expect(store.get(chip!.id).content).toBe("soon gone");
    clock.advance(1);
    expect(store.list()).toEqual([]);
    expect(() => store.get(chip!.id)).toThrowError(expect.objectContaining({ code: "chip_not_found" }));
    expect(existsSync(join(dir, `chip-${chip!.id}.json`))).toBe(false);
  });

  it("drops expired chips found on disk when opening", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const { chip } = openChipStore({ dir, ttlMs: 10, clock }).saveContent({ tool: "t", content: "x" });
    clock.advance(11);
    const reopened = openChipStore({ dir, ttlMs: 10, clock });
    expect(reopened.loadReport.expired).toEqual([chip!.id]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("ids", () => {
  it("retries on an id taken in memory", () => {
    const random = scriptedRandom([
      [0xab, 0xcd, 0xef],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0xab, 0xcd, 0xef],
    ]);
    const store = openChipStore({ dir: tempDir(), random });
    expect(store.saveContent({ tool: "t", content: "one" }).chip!.id).toBe("abcdef");
    const second = store.saveContent({ tool: "t", content: "two" }).chip!.id;
    expect(second).not.toBe("abcdef");
    expect(second).toMatch(/^[0-9a-f]{6}$/);
  });

  it("retries on an id taken on disk by another process", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "chip-abcdef.json"), "{not json");
    const random = scriptedRandom([[0xab, 0xcd, 0xef]]);
    const store = openChipStore({ dir, random });
    const { chip } = store.saveContent({ tool: "t", content: "mine" });
    expect(chip!.id).not.toBe("abcdef");
    expect(readFileSync(join(dir, "chip-abcdef.json"), "utf8")).toBe("{not json");
  });

  it("falls back to 12 hex characters after 5 collisions", () => {
    const same = [0x11, 0x22, 0x33];
    const random = scriptedRandom([same, [1, 2, 3, 4, 5, 6, 7, 8], same, same, same, same, same]);
    const store = openChipStore({ dir: tempDir(), random });
    store.saveContent({ tool: "t", content: "first" });
    const { chip } = store.saveContent({ tool: "t", content: "second" });
    expect(chip!.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it("treats a path-like id as a clean not-found and never reads outside the directory", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    for (const bad of ["../../etc/passwd", "ABCDEF", "abcde", "abcdefg", "", "chip-abcdef", "abcdef/../x"]) {
      expect(store.find(bad)).toBeNull();
      expect(() => store.get(bad)).toThrowError(expect.objectContaining({ code: "chip_invalid_id" }));
      expect(store.delete(bad)).toBe(false);
    }
    expect(() => store.get("abcdef")).toThrowError(expect.objectContaining({ code: "chip_not_found" }));
  });
});
