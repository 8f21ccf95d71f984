// Our namespace inside a shared SQLite file: other programs' objects are left alone, files we
// cannot use are refused without changing a byte, and older schemas are migrated in place.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { driverOptions, rawConnection, testDrivers } from "../../test/drivers.js";
import { fileHash, tempDir } from "../../test/helpers.js";
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

describe.each(testDrivers())("the schema inside a shared file, on %s", (driver) => {
  const raw = (p = path): SqlConnection => rawConnection(driver, p);
  const openSqliteStore = (opts: SqliteStoreOptions) => openAny({ ...driverOptions(driver), ...opts });

  it("leaves another program's tables, indexes, triggers and user_version untouched", () => {
    const db = raw();
    db.exec(`CREATE TABLE ccr_entries (id TEXT PRIMARY KEY, body TEXT);
      CREATE INDEX ccr_entries_body ON ccr_entries (body);
      CREATE TABLE audit (n INTEGER);
      CREATE TRIGGER ccr_entries_audit AFTER INSERT ON ccr_entries BEGIN INSERT INTO audit VALUES (1); END;
      INSERT INTO ccr_entries VALUES ('a', 'theirs'), ('b', 'also theirs');
      PRAGMA user_version = 42;`);
    const snapshot = (d: SqlConnection) => ({
      schema: d
        .prepare(
          "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '%caveman_ccr_%' ORDER BY name",
        )
        .all(),
      rows: d.prepare("SELECT * FROM ccr_entries ORDER BY id").all(),
      audit: scalar(d.prepare("SELECT count(*) FROM audit")),
      userVersion: pragma(d, "user_version"),
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

  it("refuses a caveman_ccr_meta of another layout or kind as foreign, changing nothing", () => {
    const foreignMetas = [
      "CREATE TABLE caveman_ccr_meta (k TEXT, v TEXT); INSERT INTO caveman_ccr_meta VALUES ('a', 'b');",
      `CREATE TABLE other (key TEXT, value INTEGER); INSERT INTO other VALUES ('schema_version', ${SCHEMA_VERSION});
       CREATE VIEW caveman_ccr_meta AS SELECT key, value FROM other;
       CREATE TABLE caveman_ccr_entries (handle TEXT, sha256 TEXT, size INTEGER, kind TEXT, producer TEXT,
         tokens_in INTEGER, tokens_out INTEGER, created_at INTEGER, stored_at INTEGER,
         last_access_at INTEGER, hits INTEGER, original BLOB);`,
    ];
    for (const [i, ddl] of foreignMetas.entries()) {
      const p = join(dir, `foreign-${i}.db`);
      const db = raw(p);
      db.exec(ddl);
      db.close();
      const before = fileHash(p);
      expect(() => openSqliteStore({ path: p })).toThrow(
        expect.objectContaining({ code: "store_foreign_schema" }),
      );
      expect(fileHash(p)).toBe(before);
    }
  });

  it("migrates a version 1 file in place, keeping every original and its hits", () => {
    const v1 = openSqliteStore({ path });
    const { handle } = v1.put("made by version 1");
    v1.get(handle);
    v1.get(handle);
    v1.close();
    // Turn the file back into what version 1 wrote: no hits counter, no hits triggers.
    const db = raw();
    db.exec(`DROP TRIGGER caveman_ccr_entries_hits_del;
      DROP TRIGGER caveman_ccr_entries_hits_upd; DELETE FROM caveman_ccr_meta WHERE key = 'hits';
      DROP TRIGGER caveman_ccr_entries_outbox_del; DROP TABLE caveman_ccr_outbox;
      UPDATE caveman_ccr_meta SET value = 1 WHERE key = 'schema_version';`);
    db.close();
    const store = openSqliteStore({ path });
    expect(store.stats()).toMatchObject({ entries: 1, hits: 2 });
    expect(new TextDecoder().decode(store.get(handle)!.original)).toBe("made by version 1");
    expect(store.stats().hits).toBe(3);
    store.close();
    const check = raw();
    expect(scalar(check.prepare("SELECT value FROM caveman_ccr_meta WHERE key = 'schema_version'"))).toBe(
      SCHEMA_VERSION,
    );
    check.close();
  });

  it("migrates a version 2 file to the outbox schema, whose rows keep their entries from eviction", () => {
    openSqliteStore({ path }).close();
    const db = raw();
    db.exec(`DROP TRIGGER caveman_ccr_entries_outbox_del; DROP TABLE caveman_ccr_outbox;
      UPDATE caveman_ccr_meta SET value = 2 WHERE key = 'schema_version';`);
    db.close();
    let now = 1_700_000_000_000;
    const store = openSqliteStore({ path, budgetBytes: 100, idleMs: 1000, clock: () => now });
    const queued = store.put("q".repeat(60)).handle;
    store.outbox.add("redis://t#ns", queued);
    now += 5000;
    // The budget needs room and the queued entry is idle, but it is the team store's only copy.
    expect(() => store.put("n".repeat(60))).toThrow(/store_full/);
    store.outbox.done("redis://t#ns", queued);
    store.put("n".repeat(60));
    expect(store.has(queued)).toBe(false);
    store.close();
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
});
