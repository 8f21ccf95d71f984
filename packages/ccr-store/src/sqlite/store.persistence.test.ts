// SQLite store basics: persistence in WAL mode, one connection per file, a file moved or locked
// under the store, and refused options.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDrivers } from "../../test/drivers.js";
import { dir, onDriver, path, useTempDb } from "../../test/sqliteFiles.js";
import { pragma, scalar } from "./driver.js";
import { SCHEMA_VERSION } from "./schema.js";

useTempDb();

describe.each(testDrivers())("openSqliteStore on %s", (driver) => {
  const { raw, openSqliteStore } = onDriver(driver);

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
