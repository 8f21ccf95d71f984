// The CcrStore contract, run against both backends: they must behave the same.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bytesOf, useBackends } from "../test/backends.js";
import { manualClock } from "../test/helpers.js";
import { computeHandle } from "./handle.js";
import { originalText } from "./text.js";

describe.each(useBackends())("%s backend", (_name, open) => {
  it("returns empty, 1-byte, 10 MiB, binary and invalid-UTF-8 originals byte for byte", () => {
    const store = open();
    const originals = [
      new Uint8Array(0),
      new Uint8Array([0x2a]),
      new Uint8Array(randomBytes(10 * 1024 * 1024)),
      bytesOf(256, (i) => i),
      new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x00]),
    ];
    for (const original of originals) {
      const { handle, created } = store.put(original);
      expect(created).toBe(true);
      expect(handle).toBe(computeHandle(original));
      const rec = store.get(handle);
      expect(rec).not.toBeNull();
      expect(rec!.size).toBe(original.byteLength);
      expect(Buffer.compare(Buffer.from(rec!.original), Buffer.from(original))).toBe(0);
    }
    expect(originalText(store.get(computeHandle(originals[4]!))!)).toBeNull();
    expect(store.stats().entries).toBe(5);
  });

  it("stores a string as its UTF-8 bytes, BOM and CRLF included", () => {
    const store = open();
    const text = "\ufeffline 1\r\nπ ≠ 3 😀\n";
    const { handle } = store.put(text);
    const rec = store.get(handle)!;
    expect(originalText(rec)).toBe(text);
    expect(handle).toBe(computeHandle(new TextEncoder().encode(text)));
  });

  it("makes a second put of the same bytes idempotent and keeps the first metadata", () => {
    const clock = manualClock();
    const store = open({ clock: clock.now });
    const first = store.put("same", { kind: "log", producer: "npm test", tokensIn: 10, tokensOut: 3 });
    clock.advance(1000);
    const second = store.put(new TextEncoder().encode("same"), { kind: "json" });
    expect(second).toEqual({ handle: first.handle, created: false });
    const rec = store.get(first.handle)!;
    expect(rec).toMatchObject({ kind: "log", producer: "npm test", tokensIn: 10, tokensOut: 3, hits: 1 });
    expect(rec.createdAt).toBe(clock.now() - 1000);
    expect(store.stats()).toMatchObject({ entries: 1, bytes: 4, hits: 1 });
  });

  it("keeps its own copy: mutating the caller's buffer or a returned record changes nothing", () => {
    const store = open();
    const buf = new Uint8Array([1, 2, 3]);
    const { handle } = store.put(buf);
    buf[0] = 9;
    const rec = store.get(handle)!;
    rec.original[1] = 9;
    expect([...store.get(handle)!.original]).toEqual([1, 2, 3]);
  });

  it("copies a Buffer argument too (Buffer#slice shares memory)", () => {
    const store = open();
    const buf = Buffer.from("buffer-backed original");
    const { handle } = store.put(buf);
    buf.fill(0);
    expect(new TextDecoder().decode(store.get(handle)!.original)).toBe("buffer-backed original");
  });

  it("answers null for an unknown handle and has() without counting a hit", () => {
    const store = open();
    const { handle } = store.put("x");
    expect(store.has(handle)).toBe(true);
    expect(store.has(`<<ccr:${handle.slice(4)}>>`)).toBe(true);
    expect(store.stats().hits).toBe(0);
    const unknown = computeHandle("never stored");
    expect(store.get(unknown)).toBeNull();
    expect(store.has(unknown)).toBe(false);
  });

  it("accepts any legal spelling in get and refuses malformed handles with invalid_handle", () => {
    const store = open();
    const { handle } = store.put("spelled");
    expect(store.get(` \`ccr://${handle.slice(4)}\` `)?.handle).toBe(handle);
    for (const bad of ["", "ccr_123", "chip://1", handle.toUpperCase(), "x".repeat(10_000)]) {
      expect(() => store.get(bad)).toThrow(expect.objectContaining({ code: "invalid_handle" }));
      expect(() => store.has(bad)).toThrow(expect.objectContaining({ code: "invalid_handle" }));
    }
    expect(() => store.get(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: "invalid_handle" }),
    );
  });

  it("refuses bad originals and bad metadata with typed errors and stores nothing", () => {
    const store = open();
    expect(() => store.put("lone \ud800")).toThrow(expect.objectContaining({ code: "invalid_original" }));
    expect(() => store.put(null as unknown as string)).toThrow(
      expect.objectContaining({ code: "invalid_original" }),
    );
    const badMeta: unknown[] = [
      null,
      "log",
      [1],
      { kind: 5 },
      { kind: "k".repeat(65) },
      { producer: "p".repeat(257) },
      { tokensIn: -1 },
      { tokensOut: 1.5 },
      { createdAt: Number.NaN },
      { tokensIn: "10" },
      { handle: "ccr_0123456789abcdef0123456789abcdef" },
    ];
    for (const meta of badMeta) {
      expect(() => store.put("payload", meta as never), JSON.stringify(meta)).toThrow(
        expect.objectContaining({ code: "invalid_meta" }),
      );
    }
    expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("turns metadata that throws when read into invalid_meta and stores nothing", () => {
    const store = open();
    const hostile = [
      {
        get kind(): string {
          throw new Error("getter exploded");
        },
      },
      new Proxy(
        {},
        {
          ownKeys() {
            throw new Error("proxy exploded");
          },
        },
      ),
    ];
    for (const meta of hostile) {
      expect(() => store.put("x", meta)).toThrow(expect.objectContaining({ code: "invalid_meta" }));
    }
    expect(store.stats().entries).toBe(0);
  });

  it("refuses nonsense options with invalid_config", () => {
    for (const opts of [
      { budgetBytes: 0 },
      { budgetBytes: -5 },
      { idleMs: 1.5 },
      { budgetBytes: Number.NaN },
    ]) {
      expect(() => open(opts)).toThrow(expect.objectContaining({ code: "invalid_config" }));
    }
    const store = open({ clock: () => Number.NaN });
    expect(() => store.put("x")).toThrow(expect.objectContaining({ code: "invalid_config" }));
    expect(store.stats().entries).toBe(0);
  });

  it("throws store_closed after close, and close twice is harmless", () => {
    const store = open();
    const { handle } = store.put("bye");
    store.close();
    store.close();
    expect(() => store.get(handle)).toThrow(expect.objectContaining({ code: "store_closed" }));
    expect(() => store.put("again")).toThrow(expect.objectContaining({ code: "store_closed" }));
    expect(() => store.stats()).toThrow(expect.objectContaining({ code: "store_closed" }));
  });
});
