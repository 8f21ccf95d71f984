// Capacity, run against both backends: the byte budget, the sliding idle window, dropping only
// idle entries (least recently used first) and refusing with store_full rather than drop a live one.
import { describe, expect, it } from "vitest";
import { bytesOf, DAY, useBackends } from "../test/backends.js";
import { manualClock } from "../test/helpers.js";

describe.each(useBackends())("%s backend", (_name, open) => {
  it("counts hits of the entries held, and forgets the hits of dropped ones", () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, budgetBytes: 100, idleMs: DAY });
    const a = store.put(bytesOf(40, () => 1)).handle;
    const b = store.put(bytesOf(40, () => 2)).handle;
    for (let i = 0; i < 3; i++) store.get(a);
    clock.advance(DAY / 2);
    store.get(b);
    store.get(b);
    expect(store.stats().hits).toBe(5);
    clock.advance(DAY * 0.75);
    store.put(bytesOf(40, () => 3));
    expect(store.has(a)).toBe(false);
    expect(store.stats()).toMatchObject({ entries: 2, bytes: 80, hits: 2 });
  });

  it("makes room among many entries by dropping exactly the least recently used idle ones", () => {
    const clock = manualClock();
    const n = 20_000;
    const store = open({ clock: clock.now, budgetBytes: n * 8, idleMs: DAY });
    const handles: string[] = [];
    for (let i = 0; i < n; i++) {
      clock.advance(1);
      handles.push(store.put(String(i).padStart(8, "0")).handle);
    }
    // Nothing is idle yet: each refused put must fail fast, not rescan every entry.
    for (let i = 0; i < 2000; i++) {
      expect(() => store.put(`r${String(i).padStart(7, "0")}`)).toThrow(
        expect.objectContaining({ code: "store_full" }),
      );
    }
    // Reading the first entry late makes it the most recently used, so it must survive.
    clock.advance(DAY);
    store.get(handles[0]!);
    clock.advance(DAY);
    for (let i = 0; i < 2000; i++) store.put(`n${String(i).padStart(7, "0")}`);
    expect(store.has(handles[0]!)).toBe(true);
    expect(handles.slice(1, 2001).some((h) => store.has(h))).toBe(false);
    expect(store.has(handles[2001]!)).toBe(true);
    expect(store.stats()).toMatchObject({ entries: n, bytes: n * 8 });
  });

  it("refuses an original larger than the whole budget with original_too_large", () => {
    const store = open({ budgetBytes: 100 });
    expect(() => store.put(new Uint8Array(101))).toThrow(
      expect.objectContaining({ code: "original_too_large" }),
    );
    expect(store.put(new Uint8Array(100)).created).toBe(true);
  });

  it("refuses a put with store_full rather than drop an entry still inside the idle window", () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, budgetBytes: 1000, idleMs: DAY });
    const a = store.put(bytesOf(600, () => 1)).handle;
    clock.advance(DAY - 1);
    expect(() => store.put(bytesOf(500, () => 2))).toThrow(expect.objectContaining({ code: "store_full" }));
    expect(store.get(a)).not.toBeNull();
    expect(store.stats()).toMatchObject({ entries: 1, bytes: 600 });
  });

  it("drops idle entries, oldest first and only as many as needed, to make room", () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, budgetBytes: 1000, idleMs: DAY });
    const a = store.put(bytesOf(300, () => 1)).handle;
    clock.advance(10);
    const b = store.put(bytesOf(300, () => 2)).handle;
    clock.advance(10);
    const c = store.put(bytesOf(300, () => 3)).handle;
    clock.advance(DAY + 100);
    const d = store.put(bytesOf(350, () => 4)).handle;
    expect([store.has(a), store.has(b), store.has(c), store.has(d)]).toEqual([false, true, true, true]);
    expect(store.stats()).toMatchObject({ entries: 3, bytes: 950 });
  });

  it("slides the idle window on every get and on every repeated put", () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, budgetBytes: 1000, idleMs: DAY });
    const read = store.put(bytesOf(400, () => 1)).handle;
    const reput = store.put(bytesOf(400, () => 2)).handle;
    clock.advance(DAY - 5);
    store.get(read);
    store.put(bytesOf(400, () => 2));
    clock.advance(DAY - 5);
    // Both were touched less than a day ago, so nothing is idle and the put is refused.
    expect(() => store.put(bytesOf(400, () => 3))).toThrow(expect.objectContaining({ code: "store_full" }));
    clock.advance(10);
    expect(store.put(bytesOf(400, () => 3)).created).toBe(true);
    expect(store.has(read) !== store.has(reput)).toBe(true);
  });

  it("does not drop anything while the budget holds, however old the entries", () => {
    const clock = manualClock();
    const store = open({ clock: clock.now, budgetBytes: 10_000, idleMs: DAY });
    const old = store.put("ancient").handle;
    clock.advance(365 * DAY);
    store.put("new");
    expect(store.get(old)).not.toBeNull();
  });
});
