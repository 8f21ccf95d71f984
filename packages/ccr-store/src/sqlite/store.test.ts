// SQLite-only behaviour: persistence, WAL, one connection per file, refusal of files we cannot
// write, failing writes, corruption detection and repair, and lock handling.
import { execFileSync } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileHash, tempDir } from "../../test/helpers.js";
import { computeHandle } from "../handle.js";
import { SCHEMA_VERSION } from "./schema.js";
import { openSqliteStore } from "./store.js";

let dir: string;
let path: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  path = join(dir, "ccr.db");
});
afterEach(() => cleanup());

const raw = (p = path): Database.Database => new Database(p);

describe("openSqliteStore", () => {
  it("keeps originals across close and reopen, in WAL mode, with an intact database", () => {
    const store = openSqliteStore({ path });
    const { handle } = store.put("persisted", { kind: "log" });
    store.close();
    const again = openSqliteStore({ path });
    expect(again.get(handle)).toMatchObject({ kind: "log", size: 9 });
    again.close();
    const db = raw();
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(db.prepare("SELECT value FROM caveman_ccr_meta WHERE key = 'schema_version'").pluck().get()).toBe(
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
    holder.pragma("busy_timeout = 0");
    holder.exec("BEGIN IMMEDIATE");
    const store = openSqliteStore({ path, busyTimeoutMs: 50 });
    expect(() => store.put("waits")).toThrow(expect.objectContaining({ code: "store_busy" }));
    holder.exec("COMMIT");
    expect(store.put("waits").created).toBe(true);
    store.close();

    holder.pragma("journal_mode = DELETE");
    holder.exec("BEGIN EXCLUSIVE");
    expect(() => openSqliteStore({ path, busyTimeoutMs: 50 })).toThrow(
      expect.objectContaining({ code: "store_busy" }),
    );
    holder.exec("ROLLBACK");
    holder.close();
  });

  it("refuses a database it cannot write with store_open_failed", () => {
    openSqliteStore({ path }).close();
    const before = fileHash(path);
    execFileSync("chattr", ["+i", path]);
    try {
      expect(() => openSqliteStore({ path })).toThrow(/store_open_failed: .*read-only/);
    } finally {
      execFileSync("chattr", ["-i", path]);
    }
    expect(fileHash(path)).toBe(before);
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
    expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
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

  it("passes nativeBinding through to better-sqlite3", () => {
    const require = createRequire(import.meta.url);
    const binding = join(
      require.resolve("better-sqlite3/package.json"),
      "..",
      "build",
      "Release",
      "better_sqlite3.node",
    );
    const store = openSqliteStore({ path, nativeBinding: binding });
    expect(store.put("native").handle).toBe(computeHandle("native"));
    store.close();
    expect(() =>
      openSqliteStore({ path: join(dir, "other.db"), nativeBinding: join(dir, "missing.node") }),
    ).toThrow(expect.objectContaining({ code: "store_open_failed" }));
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
