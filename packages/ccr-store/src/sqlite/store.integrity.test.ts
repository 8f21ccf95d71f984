// The SQLite store keeps nothing half-way and nothing altered: failing writes, corrupted BLOBs
// and hashes are detected and repaired; both drivers read and write one file format.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { driverOptions, rawConnection, testDrivers } from "../../test/drivers.js";
import { onDriver, path, useTempDb } from "../../test/sqliteFiles.js";
import { computeHandle } from "../handle.js";
import { pragma } from "./driver.js";
import { openSqliteStore as openAny } from "./store.js";

useTempDb();

describe.each(testDrivers())("openSqliteStore on %s", (driver) => {
  const { raw, openSqliteStore } = onDriver(driver);

  it("turns a failing write into store_io_failed, stores nothing half-way and recovers", () => {
    const store = openSqliteStore({ path });
    const kept = store.put("written before the fault").handle;
    execFileSync("chattr", ["+i", `${path}-wal`]);
    try {
      expect(() => store.put("refused by the disk")).toThrow(
        /store_io_failed: .*nothing was half-written\. Check the disk/,
      );
      // Reads still work: the verified bytes come back even though the hit cannot be recorded.
      expect(new TextDecoder().decode(store.get(kept)!.original)).toBe("written before the fault");
    } finally {
      execFileSync("chattr", ["-i", `${path}-wal`]);
    }
    expect(store.has(computeHandle("refused by the disk"))).toBe(false);
    expect(store.put("refused by the disk").created).toBe(true);
    expect(store.stats()).toMatchObject({ entries: 2 });
    store.close();
    const check = raw();
    expect(pragma(check, "integrity_check")).toBe("ok");
    check.close();
  });

  it("detects a BLOB altered behind its back, never returns it, and repairs it on the next put", () => {
    const original = "the original bytes ".repeat(50);
    const store = openSqliteStore({ path });
    const { handle } = store.put(original);
    const db = raw();
    db.prepare("UPDATE caveman_ccr_entries SET original = ? WHERE handle = ?").run(
      Buffer.from(original.replace("original", "ORIGINAL")),
      handle,
    );
    db.close();
    expect(() => store.get(handle)).toThrow(
      /store_corrupt: the record for ccr_[0-9a-f]{32} .* does not match its hash/,
    );
    expect(store.has(handle)).toBe(true);
    expect(store.put(original)).toEqual({ handle, created: false });
    expect(new TextDecoder().decode(store.get(handle)!.original)).toBe(original);
    store.close();
  });

  it("detects a byte flipped inside the BLOB on disk", () => {
    const marker = Buffer.from("MARKER-0123456789-".repeat(40));
    const store = openSqliteStore({ path });
    const { handle } = store.put(marker);
    store.close();
    const file = readFileSync(path);
    const at = file.indexOf(marker.subarray(0, 64));
    expect(at).toBeGreaterThan(0);
    file[at + 100] = file[at + 100]! ^ 0x20;
    writeFileSync(path, file);
    const reopened = openSqliteStore({ path });
    expect(() => reopened.get(handle)).toThrow(expect.objectContaining({ code: "store_corrupt" }));
    reopened.close();
  });

  it("detects a stored hash that does not match the bytes, and repairs it on the next put", () => {
    const store = openSqliteStore({ path });
    const { handle } = store.put("abc");
    const db = raw();
    db.prepare("UPDATE caveman_ccr_entries SET sha256 = ? WHERE handle = ?").run("0".repeat(64), handle);
    db.close();
    expect(() => store.get(handle)).toThrow(expect.objectContaining({ code: "store_corrupt" }));
    expect(store.put("abc").created).toBe(false);
    expect(store.get(handle)?.size).toBe(3);
    store.close();
  });
});

// Where both drivers load in one process (Node 22.13+ with a better-sqlite3 built for it), a file
// written by either is read by the other: one on-disk format.
const both = testDrivers().length === 2 ? [testDrivers(), [...testDrivers()].reverse()] : [];
describe.each(both)("one file format: written with %s, read with %s", (writer, reader) => {
  it("reads every original, its metadata and the counters, then writes for the other to read", () => {
    const originals = [
      new Uint8Array(0),
      new Uint8Array([0xff, 0x00, 0xfe, 0xc3, 0x28]),
      new TextEncoder().encode("\ufeffline 1\r\nπ 😀\n"),
      new Uint8Array(200_000).map((_, i) => (i * 7) & 0xff),
    ];
    const w = openAny({ path, ...driverOptions(writer) });
    const handles = originals.map(
      (o, i) => w.put(o, { kind: `k${i}`, producer: writer, tokensIn: i }).handle,
    );
    w.get(handles[1]!);
    expect(w.stats().driver).toBe(writer);
    w.close();
    const r = openAny({ path, ...driverOptions(reader) });
    expect(r.stats()).toMatchObject({ driver: reader, entries: 4, hits: 1 });
    originals.forEach((o, i) => {
      const rec = r.get(handles[i]!)!;
      expect(rec).toMatchObject({ kind: `k${i}`, producer: writer, tokensIn: i, size: o.byteLength });
      expect(Buffer.compare(rec.original, o)).toBe(0);
    });
    const back = r.put("written by the reader").handle;
    r.close();
    const again = openAny({ path, ...driverOptions(writer) });
    expect(new TextDecoder().decode(again.get(back)!.original)).toBe("written by the reader");
    expect(again.stats()).toMatchObject({ entries: 5, hits: 6 });
    again.close();
    const check = rawConnection(reader, path);
    expect(pragma(check, "integrity_check")).toBe("ok");
    check.close();
  });
});
