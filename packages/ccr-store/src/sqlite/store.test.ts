// SQLite-only behaviour: persistence, WAL, one connection per file, refusal of files we cannot
// write, failing writes, corruption detection and repair, and lock handling.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { driverOptions, rawConnection, testDrivers } from "../../test/drivers.js";
import { fileHash, tempDir } from "../../test/helpers.js";
import { computeHandle } from "../handle.js";
import { pragma, type SqlConnection, scalar } from "./driver.js";
import { SCHEMA_VERSION } from "./schema.js";
import { openSqliteStore as openAny, type SqliteStoreOptions } from "./store.js";

let dir: string;
let path: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  path = join(dir, "ccr.db");
});
afterEach(() => cleanup());

describe.each(testDrivers())("openSqliteStore on %s", (driver) => {
  const raw = (p = path): SqlConnection => rawConnection(driver, p);
  const openSqliteStore = (opts: SqliteStoreOptions) => openAny({ ...driverOptions(driver), ...opts });

  it("keeps originals across close and reopen, in WAL mode, with an intact database", () => {
    const store = openSqliteStore({ path });
    const { handle } = store.put("persisted", { kind: "log" });
    store.close();
    const again = openSqliteStore({ path });
    expect(again.get(handle)).toMatchObject({ kind: "log", size: 9 });
    again.close();
    const db = raw();
    expect(pragma(db, "journal_mode")).toBe("wal");
    expect(pragma(db, "integrity_check")).toBe("ok");
    expect(scalar(db.prepare("SELECT value FROM caveman_ccr_meta WHERE key = 'schema_version'"))).toBe(
      SCHEMA_VERSION,
    );
    db.close();
  });

  it("shares one connection between stores of one process; each closes independently", () => {
    const a = openSqliteStore({ path });
    const b = openSqliteStore({ path: join(dir, ".", "ccr.db") });
    const { handle } = a.put("shared");
    a.close();
    expect(b.get(handle)).not.toBeNull();
    expect(b.stats()).toMatchObject({ backend: "sqlite", entries: 1, hits: 1 });
    b.close();
  });

  it("repairs a record whose size column alone was damaged on the next put", () => {
    const store = openSqliteStore({ path });
    const { handle } = store.put("hello world");
    const db = raw();
    db.prepare("UPDATE caveman_ccr_entries SET size = size + 1 WHERE handle = ?").run(handle);
    db.close();
    expect(() => store.get(handle)).toThrow(expect.objectContaining({ code: "store_corrupt" }));
    expect(store.put("hello world")).toEqual({ handle, created: false });
    expect(new TextDecoder().decode(store.get(handle)!.original)).toBe("hello world");
    expect(store.stats()).toMatchObject({ entries: 1, bytes: 11 });
    store.close();
  });

  it("writes to the file now at the path, not to one moved away while a store had it open", () => {
    const first = openSqliteStore({ path });
    first.put("kept in the old file");
    first.close();
    const holder = openSqliteStore({ path });
    for (const suffix of ["", "-wal", "-shm"]) {
      try {
        renameSync(path + suffix, join(dir, `moved.db${suffix}`));
      } catch {
        // -wal/-shm may not exist
      }
    }
    const fresh = openSqliteStore({ path });
    const { handle } = fresh.put("belongs in the new file");
    fresh.close();
    holder.close();
    const reopened = openSqliteStore({ path });
    expect(new TextDecoder().decode(reopened.get(handle)!.original)).toBe("belongs in the new file");
    expect(reopened.stats().entries).toBe(1);
    reopened.close();
  });

  it("reports a locked database as store_busy at open and at put, then works once it is free", () => {
    openSqliteStore({ path }).close();
    const holder = raw();
    holder.exec("PRAGMA busy_timeout = 0");
    holder.exec("BEGIN IMMEDIATE");
    const store = openSqliteStore({ path, busyTimeoutMs: 50 });
    expect(() => store.put("waits")).toThrow(expect.objectContaining({ code: "store_busy" }));
    holder.exec("COMMIT");
    expect(store.put("waits").created).toBe(true);
    store.close();

    pragma(holder, "journal_mode = DELETE");
    holder.exec("BEGIN EXCLUSIVE");
    expect(() => openSqliteStore({ path, busyTimeoutMs: 50 })).toThrow(
      expect.objectContaining({ code: "store_busy" }),
    );
    holder.exec("ROLLBACK");
    holder.close();
  });

  it("opens a database it cannot write read-only: gets are served, puts refused with store_read_only", () => {
    const seed = openSqliteStore({ path });
    const { handle } = seed.put("stored before the disk went read-only");
    seed.close();
    const before = fileHash(path);
    execFileSync("chattr", ["+i", path]);
    try {
      const store = openSqliteStore({ path });
      expect(store.stats()).toMatchObject({ writable: false, entries: 1 });
      expect(new TextDecoder().decode(store.get(handle)!.original)).toBe(
        "stored before the disk went read-only",
      );
      expect(() => store.put("new")).toThrow(expect.objectContaining({ code: "store_read_only" }));
      expect(store.has(computeHandle("new"))).toBe(false);
      store.close();
    } finally {
      execFileSync("chattr", ["-i", path]);
    }
    expect(fileHash(path)).toBe(before);
  });

  it("serves gets from a read-only directory with no -wal/-shm files, and refuses puts", () => {
    const seed = openSqliteStore({ path });
    const { handle } = seed.put("kept in a directory that became read-only");
    seed.close();
    execFileSync("chattr", ["+i", dir]);
    try {
      const store = openSqliteStore({ path });
      expect(store.get(handle)?.size).toBe(41);
      expect(() => store.put("refused")).toThrow(expect.objectContaining({ code: "store_read_only" }));
      store.close();
    } finally {
      execFileSync("chattr", ["-i", dir]);
    }
  });

  it("refuses a read-only file that holds no store yet with store_open_failed", () => {
    writeFileSync(path, "", { mode: 0o600 });
    execFileSync("chattr", ["+i", path]);
    try {
      expect(() => openSqliteStore({ path })).toThrow(
        /store_open_failed: .*read-only and holds no CCR store/,
      );
    } finally {
      execFileSync("chattr", ["-i", path]);
    }
  });

  it("reopens a database deleted under it, carries its originals over, and stores where others look", () => {
    const store = openSqliteStore({ path });
    const early = store.put("put before the file was deleted").handle;
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    const late = store.put("put after the file was deleted").handle;
    const other = openSqliteStore({ path: join(dir, ".", "ccr.db") });
    for (const h of [early, late]) expect(other.get(h), h).not.toBeNull();
    expect(other.stats().entries).toBe(2);
    other.close();
    store.close();
  });

  it("follows a database replaced under it, and keeps the replacement's originals", () => {
    const store = openSqliteStore({ path });
    const mine = store.put("mine").handle;
    const elsewhere = join(dir, "elsewhere.db");
    const theirs = openSqliteStore({ path: elsewhere });
    const theirHandle = theirs.put("theirs").handle;
    theirs.close();
    // Replaced as SQLite allows: the old file goes with its -wal/-shm (a -wal left beside another
    // database would be replayed into it, which no program can guard against).
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    renameSync(elsewhere, path);
    const late = store.put("after the swap").handle;
    store.close();
    const check = openSqliteStore({ path });
    for (const h of [mine, theirHandle, late]) expect(check.get(h), h).not.toBeNull();
    check.close();
  });

  it("releases the new file's connection when following a replaced database fails midway", () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 50 });
    store.put("held by the first file");
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    // A valid database appears at the path, and another process holds its write lock, so the
    // store can open it but cannot carry its originals over.
    openSqliteStore({ path }).close();
    const writer = raw();
    writer.exec("BEGIN IMMEDIATE");
    expect(() => store.put("refused while the new file is locked")).toThrow(
      expect.objectContaining({ code: "store_vanished" }),
    );
    writer.exec("COMMIT");
    writer.close();
    store.close();
    // SQLite removes the -wal when the last connection to a file closes: one left behind would
    // be a connection this store opened and never gave back.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("refuses a put with store_vanished when a deleted database cannot be made again", () => {
    const store = openSqliteStore({ path });
    const kept = store.put("still held by the open connection").handle;
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    execFileSync("chattr", ["+i", dir]);
    try {
      expect(() => store.put("would be lost")).toThrow(expect.objectContaining({ code: "store_vanished" }));
      // The open connection still holds what was stored before; a miss stays a miss.
      expect(store.get(kept)).not.toBeNull();
      expect(store.get(computeHandle("would be lost"))).toBeNull();
    } finally {
      execFileSync("chattr", ["-i", dir]);
    }
    // Once the directory is usable again, the next put recreates the file with what was held.
    expect(store.put("would be lost").created).toBe(true);
    store.close();
    const check = openSqliteStore({ path });
    expect(check.get(kept)).not.toBeNull();
    check.close();
  });

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

  it("refuses options without a usable path or with a bad synchronous level", () => {
    expect(() => openSqliteStore(undefined as never)).toThrow(
      expect.objectContaining({ code: "invalid_config" }),
    );
    expect(() => openSqliteStore({ path: "ccr.db" })).toThrow(
      expect.objectContaining({ code: "invalid_config" }),
    );
    expect(() => openSqliteStore({ path, synchronous: "off" as never })).toThrow(
      expect.objectContaining({ code: "invalid_config" }),
    );
    const full = openSqliteStore({ path, synchronous: "full", busyTimeoutMs: 1000 });
    expect(full.put("durable").created).toBe(true);
    full.close();
  });
});

function rmIfThere(file: string): void {
  rmSync(file, { force: true });
}

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
