// SQLite-only behaviour: persistence, WAL, our namespace inside a shared file, refusal of files
// we cannot use (without changing a byte of them), corruption detection and lock handling.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
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

const fileHash = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");
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

  it("leaves another program's tables, indexes, triggers and user_version untouched", () => {
    const db = raw();
    db.exec(`CREATE TABLE ccr_entries (id TEXT PRIMARY KEY, body TEXT);
      CREATE INDEX ccr_entries_body ON ccr_entries (body);
      CREATE TABLE audit (n INTEGER);
      CREATE TRIGGER ccr_entries_audit AFTER INSERT ON ccr_entries BEGIN INSERT INTO audit VALUES (1); END;
      INSERT INTO ccr_entries VALUES ('a', 'theirs'), ('b', 'also theirs');
      PRAGMA user_version = 42;`);
    const snapshot = (d: Database.Database) => ({
      schema: d
        .prepare(
          "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '%caveman_ccr_%' ORDER BY name",
        )
        .all(),
      rows: d.prepare("SELECT * FROM ccr_entries ORDER BY id").all(),
      audit: d.prepare("SELECT count(*) FROM audit").pluck().get(),
      userVersion: d.pragma("user_version", { simple: true }),
    });
    const before = snapshot(db);
    db.close();
    const store = openSqliteStore({ path });
    const { handle } = store.put("ours");
    expect(store.get(handle)).not.toBeNull();
    store.close();
    const after = raw();
    expect(snapshot(after)).toEqual(before);
    after.close();
  });

  it("refuses a file whose caveman_ccr_ tables are not ours, changing nothing", () => {
    const db = raw();
    db.exec("CREATE TABLE caveman_ccr_entries (id INTEGER PRIMARY KEY, data BLOB)");
    db.close();
    const before = fileHash(path);
    expect(() => openSqliteStore({ path })).toThrow(
      /store_foreign_schema: .*no caveman_ccr_meta.*nothing was changed/,
    );
    expect(fileHash(path)).toBe(before);
  });

  it("refuses our table names with foreign columns at the current version", () => {
    const db = raw();
    db.exec(`CREATE TABLE caveman_ccr_meta (key TEXT PRIMARY KEY, value INTEGER);
      INSERT INTO caveman_ccr_meta VALUES ('schema_version', ${SCHEMA_VERSION});
      CREATE TABLE caveman_ccr_entries (handle TEXT PRIMARY KEY, payload BLOB);`);
    db.close();
    const before = fileHash(path);
    expect(() => openSqliteStore({ path })).toThrow(
      expect.objectContaining({ code: "store_foreign_schema" }),
    );
    expect(fileHash(path)).toBe(before);
  });

  it("refuses a schema written by a newer build", () => {
    openSqliteStore({ path }).close();
    const db = raw();
    db.prepare("UPDATE caveman_ccr_meta SET value = ? WHERE key = 'schema_version'").run(SCHEMA_VERSION + 1);
    db.close();
    expect(() => openSqliteStore({ path })).toThrow(/store_foreign_schema: .*newer than this build/);
  });

  it("refuses a file that is not a database with store_corrupt and leaves it as it was", () => {
    writeFileSync(path, "this is somebody's notes file, not a database\n".repeat(20));
    const before = fileHash(path);
    expect(() => openSqliteStore({ path })).toThrow(/store_corrupt: .*not a usable SQLite database/);
    expect(fileHash(path)).toBe(before);
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
