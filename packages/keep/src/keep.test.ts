import { CcrStoreError, openMemoryStore, originalText } from "@caveman/ccr-store";
import { describe, expect, it } from "vitest";
import { inlineRunner, type Kept, keep, type Runner } from "./keep.js";
import { parseKeptHeader } from "./note.js";

function bigLog(lines = 400): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      `2026-11-02T10:${String(i % 60).padStart(2, "0")}:00Z INFO worker ${i % 7} handled request ${i} in ${i % 13} ms`,
    );
  out.splice(200, 0, "2026-11-02T10:20:00Z ERROR worker 3 failed: connection reset by peer");
  return `${out.join("\n")}\n`;
}

describe("keep", () => {
  it("returns a stand-in that starts with its header, after the original is stored", async () => {
    const store = openMemoryStore();
    const text = bigLog();
    const r = await keep({ text, producer: "Bash: cat app.log" }, { run: inlineRunner, store });
    expect(r.kept).toBe(true);
    const k = r as Kept;
    const facts = parseKeptHeader(k.text.split("\n")[0]!);
    expect(facts).toEqual({ kind: k.kind, tokensIn: k.tokensIn, tokensOut: k.tokensOut, handle: k.handle });
    expect(k.text).toBe(`${k.header}\n${k.body}`);
    expect(k.text).toContain("connection reset by peer");
    const record = store.get(k.handle);
    expect(record && originalText(record)).toBe(text);
    expect(record?.producer).toBe("Bash: cat app.log");
    expect(k.tokensOut).toBeLessThan(k.tokensIn);
  });

  it("passes a stand-in it made itself, so a second hook run changes nothing", async () => {
    const store = openMemoryStore();
    const first = (await keep({ text: bigLog() }, { run: inlineRunner, store })) as Kept;
    const again = await keep({ text: first.text }, { run: inlineRunner, store });
    expect(again).toMatchObject({ kept: false, reason: "already_compressed" });
  });

  it("passes small text with the engine's reason and stores nothing", async () => {
    const store = openMemoryStore();
    const r = await keep({ text: "hello\n" }, { run: inlineRunner, store });
    expect(r).toMatchObject({ kept: false, reason: "below_floor" });
    expect(store.stats().entries).toBe(0);
  });

  it("passes a kind the caller refuses, a gain below the minimum, and a stand-in over the budget", async () => {
    const store = openMemoryStore();
    const text = bigLog();
    expect(await keep({ text, accept: (k) => k !== "log" }, { run: inlineRunner, store })).toMatchObject({
      reason: "kind_log",
    });
    expect(await keep({ text, minGain: 0.999 }, { run: inlineRunner, store })).toMatchObject({
      reason: "gain_below_min",
    });
    expect(await keep({ text, budget: 10 }, { run: inlineRunner, store })).toMatchObject({
      reason: "budget_too_small",
    });
    expect(store.stats().entries).toBe(0);
  });

  it("passes when the engine fails or times out, and when the store refuses (with its error)", async () => {
    const store = openMemoryStore();
    const text = bigLog();
    const timeout: Runner = () => Promise.resolve({ ok: false, why: "timeout", message: "4000 ms" });
    expect(await keep({ text }, { run: timeout, store })).toMatchObject({ kept: false, reason: "timeout" });
    const refusing = {
      put: () => {
        throw new CcrStoreError("store_full", "budget reached");
      },
    };
    const r = await keep({ text }, { run: inlineRunner, store: refusing });
    expect(r).toMatchObject({ kept: false, reason: "store_refused", kind: "log" });
    expect(r.kept === false && r.error instanceof CcrStoreError).toBe(true);
  });

  it("starts nothing once the caller's time is up, and hands back nothing stored after it", async () => {
    const store = openMemoryStore();
    expect(await keep({ text: bigLog() }, { run: inlineRunner, store, expired: () => true })).toMatchObject({
      reason: "deadline",
    });
    let calls = 0;
    // Expired only after the put: the original is stored, but no stand-in is returned.
    const late = () => ++calls > 2;
    expect(await keep({ text: bigLog() }, { run: inlineRunner, store, expired: late })).toMatchObject({
      reason: "deadline",
    });
    expect(store.stats().entries).toBe(1);
  });

  it("tells onKept of each stand-in, and a throwing journal costs nothing", async () => {
    const seen: Kept[] = [];
    const store = openMemoryStore();
    const r = await keep(
      { text: bigLog() },
      {
        run: inlineRunner,
        store,
        onKept: (k) => {
          seen.push(k);
          throw new Error("disk full");
        },
      },
    );
    expect(r.kept).toBe(true);
    expect(seen.map((k) => k.handle)).toEqual([(r as Kept).handle]);
  });

  it("refuses a lone surrogate, which has no exact bytes to keep", async () => {
    await expect(
      keep({ text: `${bigLog()}\ud800` }, { run: inlineRunner, store: openMemoryStore() }),
    ).rejects.toThrow(/surrogate|invalid_original|UTF-8/i);
  });
});
