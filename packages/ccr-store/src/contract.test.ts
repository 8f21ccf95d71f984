// The CcrStore contract, run against every backend through its asynchronous face (memory and
// SQLite via toAsync, the Redis team store on a real redis-server): they must behave the same.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bytesOf, useContractBackends } from "../test/backends.js";
import { manualClock } from "../test/helpers.js";
import { computeHandle, prepareOriginal } from "./handle.js";
import { originalText } from "./text.js";

describe.each(useContractBackends())("%s backend", (_name, open) => {
  it("stores a prepared original under its handle, and refuses a hand-made one whose hash it cannot trust", async () => {
    const store = open();
    const prepared = prepareOriginal("prepared once by the caller");
    expect(await store.put(prepared, { kind: "log" })).toEqual({ handle: prepared.handle, created: true });
    expect(originalText((await store.get(prepared.handle))!)).toBe("prepared once by the caller");
    expect(await store.put("prepared once by the caller")).toEqual({
      handle: prepared.handle,
      created: false,
    });
    const forged = {
      bytes: new TextEncoder().encode("other bytes"),
      sha256: prepared.sha256,
      handle: prepared.handle,
    };
    await expect(store.put(forged as never)).rejects.toThrow(
      expect.objectContaining({ code: "invalid_original" }),
    );
    // The refusal says what is wrong with it, not only that it is not a string or bytes.
    await expect(store.put(forged as never)).rejects.toThrow(/not made by prepareOriginal/);
    await store.close();
  });

  it("stores the bytes an original was prepared from, even when the caller reuses its buffer before the put", async () => {
    const store = open();
    const buffer = new TextEncoder().encode("the bytes that were hashed");
    const prepared = prepareOriginal(buffer);
    buffer.fill(0x21); // the caller reuses its buffer; the prepared original must not follow it
    expect(await store.put(prepared)).toEqual({ handle: prepared.handle, created: true });
    const record = (await store.get(prepared.handle))!;
    expect(originalText(record)).toBe("the bytes that were hashed");
    expect(record.sha256).toBe(prepared.sha256);
    await store.close();
  });

  it("returns empty, 1-byte, 10 MiB, binary and invalid-UTF-8 originals byte for byte", async () => {
    const store = open();
    const originals = [
      new Uint8Array(0),
      new Uint8Array([0x2a]),
      new Uint8Array(randomBytes(10 * 1024 * 1024)),
      bytesOf(256, (i) => i),
      new Uint8Array([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80, 0x00]),
    ];
    for (const original of originals) {
      const { handle, created } = await store.put(original);
      expect(created).toBe(true);
      expect(handle).toBe(computeHandle(original));
      const rec = await store.get(handle);
      expect(rec).not.toBeNull();
      expect(rec!.size).toBe(original.byteLength);
      expect(Buffer.compare(Buffer.from(rec!.original), Buffer.from(original))).toBe(0);
    }
    expect(originalText((await store.get(computeHandle(originals[4]!)))!)).toBeNull();
    expect((await store.stats()).entries).toBe(5);
  });

  it("stores a string as its UTF-8 bytes, BOM and CRLF included", async () => {
    const store = open();
    const text = "\ufeffline 1\r\nπ ≠ 3 😀\n";
    const { handle } = await store.put(text);
    const rec = (await store.get(handle))!;
    expect(originalText(rec)).toBe(text);
    expect(handle).toBe(computeHandle(new TextEncoder().encode(text)));
  });

  it("makes a second put of the same bytes idempotent and keeps the first metadata", async () => {
    const clock = manualClock();
    const store = open({ clock: clock.now });
    const first = await store.put("same", { kind: "log", producer: "npm test", tokensIn: 10, tokensOut: 3 });
    clock.advance(1000);
    const second = await store.put(new TextEncoder().encode("same"), { kind: "json" });
    expect(second).toEqual({ handle: first.handle, created: false });
    const rec = (await store.get(first.handle))!;
    expect(rec).toMatchObject({ kind: "log", producer: "npm test", tokensIn: 10, tokensOut: 3, hits: 1 });
    expect(rec.createdAt).toBe(clock.now() - 1000);
    expect(await store.stats()).toMatchObject({ entries: 1, bytes: 4, hits: 1 });
  });

  it("keeps its own copy: mutating the caller's buffer or a returned record changes nothing", async () => {
    const store = open();
    const buf = new Uint8Array([1, 2, 3]);
    const { handle } = await store.put(buf);
    buf[0] = 9;
    const rec = (await store.get(handle))!;
    rec.original[1] = 9;
    expect([...(await store.get(handle))!.original]).toEqual([1, 2, 3]);
  });

  it("copies a Buffer argument too (Buffer#slice shares memory)", async () => {
    const store = open();
    const buf = Buffer.from("buffer-backed original");
    const { handle } = await store.put(buf);
    buf.fill(0);
    expect(new TextDecoder().decode((await store.get(handle))!.original)).toBe("buffer-backed original");
  });

  it("answers null for an unknown handle and has() without counting a hit", async () => {
    const store = open();
    const { handle } = await store.put("x");
    expect(await store.has(handle)).toBe(true);
    expect(await store.has(`<<ccr:${handle.slice(4)}>>`)).toBe(true);
    expect((await store.stats()).hits).toBe(0);
    const unknown = computeHandle("never stored");
    expect(await store.get(unknown)).toBeNull();
    expect(await store.has(unknown)).toBe(false);
  });

  it("accepts any legal spelling in get and refuses malformed handles with invalid_handle", async () => {
    const store = open();
    const { handle } = await store.put("spelled");
    expect((await store.get(` \`ccr://${handle.slice(4)}\` `))?.handle).toBe(handle);
    for (const bad of ["", "ccr_123", "chip://1", handle.toUpperCase(), "x".repeat(10_000)]) {
      await expect(store.get(bad)).rejects.toThrow(expect.objectContaining({ code: "invalid_handle" }));
      await expect(store.has(bad)).rejects.toThrow(expect.objectContaining({ code: "invalid_handle" }));
    }
    await expect(store.get(42 as unknown as string)).rejects.toThrow(
      expect.objectContaining({ code: "invalid_handle" }),
    );
  });

  it("refuses bad originals and bad metadata with typed errors and stores nothing", async () => {
    const store = open();
    await expect(store.put("lone \ud800")).rejects.toThrow(
      expect.objectContaining({ code: "invalid_original" }),
    );
    await expect(store.put(null as unknown as string)).rejects.toThrow(
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
      await expect(store.put("payload", meta as never), JSON.stringify(meta)).rejects.toThrow(
        expect.objectContaining({ code: "invalid_meta" }),
      );
    }
    expect(await store.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("turns metadata that throws when read into invalid_meta and stores nothing", async () => {
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
      await expect(store.put("x", meta)).rejects.toThrow(expect.objectContaining({ code: "invalid_meta" }));
    }
    expect((await store.stats()).entries).toBe(0);
  });

  it("refuses nonsense options with invalid_config", async () => {
    for (const opts of [
      { budgetBytes: 0 },
      { budgetBytes: -5 },
      { idleMs: 1.5 },
      { budgetBytes: Number.NaN },
    ]) {
      expect(() => open(opts)).toThrow(expect.objectContaining({ code: "invalid_config" }));
    }
    const store = open({ clock: () => Number.NaN });
    await expect(store.put("x")).rejects.toThrow(expect.objectContaining({ code: "invalid_config" }));
    expect((await store.stats()).entries).toBe(0);
  });

  it("throws store_closed after close, and close twice is harmless", async () => {
    const store = open();
    const { handle } = await store.put("bye");
    await store.close();
    await store.close();
    await expect(store.get(handle)).rejects.toThrow(expect.objectContaining({ code: "store_closed" }));
    await expect(store.put("again")).rejects.toThrow(expect.objectContaining({ code: "store_closed" }));
    await expect(store.stats()).rejects.toThrow(expect.objectContaining({ code: "store_closed" }));
  });
});
