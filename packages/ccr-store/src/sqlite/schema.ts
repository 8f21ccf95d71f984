// Our tables inside a SQLite file that other programs may share. Everything we create is named
// caveman_ccr_*; we never read, alter or drop anything else, and we do not use PRAGMA user_version
// (it belongs to the whole file). The schema version lives in caveman_ccr_meta. A file whose
// caveman_ccr_* objects we do not recognise, or whose version is newer than ours, is refused with
// store_foreign_schema before anything is written. Migrations run in one IMMEDIATE transaction
// and re-read the version inside it, so two processes opening a fresh file migrate it once.
// No STRICT tables or other recent syntax: an older SQLite in another program must still be able
// to read this file's schema.
import { CcrStoreError } from "../errors.js";
import { type SqlConnection, scalar, transaction } from "./driver.js";

/** The schema version this build writes and reads. */
export const SCHEMA_VERSION = 3;

export const T_META = "caveman_ccr_meta";
export const T_ENTRIES = "caveman_ccr_entries";
export const T_OUTBOX = "caveman_ccr_outbox";
const PREFIX = "caveman_ccr_";

/** Columns we rely on, per table, in order. A table under our name with other columns is foreign. */
const EXPECTED_COLUMNS: Record<string, string[]> = {
  [T_META]: ["key", "value"],
  [T_ENTRIES]: [
    "handle",
    "sha256",
    "size",
    "kind",
    "producer",
    "tokens_in",
    "tokens_out",
    "created_at",
    "stored_at",
    "last_access_at",
    "hits",
    "original",
  ],
  [T_OUTBOX]: ["target", "handle", "queued_at", "due_at", "attempts"],
};

/** Migration n takes the schema from version n-1 to n. */
const MIGRATIONS: ReadonlyArray<(db: SqlConnection) => void> = [
  (db) => {
    db.exec(`
      CREATE TABLE ${T_META} (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
      CREATE TABLE ${T_ENTRIES} (
        handle TEXT PRIMARY KEY NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        kind TEXT,
        producer TEXT,
        tokens_in INTEGER,
        tokens_out INTEGER,
        created_at INTEGER NOT NULL,
        stored_at INTEGER NOT NULL,
        last_access_at INTEGER NOT NULL,
        hits INTEGER NOT NULL DEFAULT 0,
        original BLOB NOT NULL
      );
      CREATE INDEX caveman_ccr_entries_idle ON ${T_ENTRIES} (last_access_at);
      INSERT INTO ${T_META} (key, value) VALUES ('bytes', 0), ('entries', 0);
      CREATE TRIGGER caveman_ccr_entries_ins AFTER INSERT ON ${T_ENTRIES} BEGIN
        UPDATE ${T_META} SET value = value + NEW.size WHERE key = 'bytes';
        UPDATE ${T_META} SET value = value + 1 WHERE key = 'entries';
      END;
      CREATE TRIGGER caveman_ccr_entries_del AFTER DELETE ON ${T_ENTRIES} BEGIN
        UPDATE ${T_META} SET value = value - OLD.size WHERE key = 'bytes';
        UPDATE ${T_META} SET value = value - 1 WHERE key = 'entries';
      END;
      CREATE TRIGGER caveman_ccr_entries_upd AFTER UPDATE OF size ON ${T_ENTRIES} BEGIN
        UPDATE ${T_META} SET value = value - OLD.size + NEW.size WHERE key = 'bytes';
      END;
    `);
  },
  // v2: a hits counter, so stats() reads one row instead of scanning every original in the file.
  // No insert trigger: every row is inserted with hits = 0.
  (db) => {
    db.exec(`
      INSERT INTO ${T_META} (key, value) SELECT 'hits', coalesce(sum(hits), 0) FROM ${T_ENTRIES};
      CREATE TRIGGER caveman_ccr_entries_hits_del AFTER DELETE ON ${T_ENTRIES} BEGIN
        UPDATE ${T_META} SET value = value - OLD.hits WHERE key = 'hits';
      END;
      CREATE TRIGGER caveman_ccr_entries_hits_upd AFTER UPDATE OF hits ON ${T_ENTRIES} BEGIN
        UPDATE ${T_META} SET value = value - OLD.hits + NEW.hits WHERE key = 'hits';
      END;
    `);
  },
  // v3: the outbox, originals still to be written to a team store (see outbox.ts). A handle with
  // a row is never dropped to make room; a dropped entry takes its rows with it.
  (db) => {
    db.exec(`
      CREATE TABLE ${T_OUTBOX} (
        target TEXT NOT NULL,
        handle TEXT NOT NULL,
        queued_at INTEGER NOT NULL,
        due_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (target, handle)
      );
      CREATE INDEX caveman_ccr_outbox_due ON ${T_OUTBOX} (target, due_at);
      CREATE TRIGGER caveman_ccr_entries_outbox_del AFTER DELETE ON ${T_ENTRIES} BEGIN
        DELETE FROM ${T_OUTBOX} WHERE handle = OLD.handle;
      END;
    `);
  },
];

/** Bring our tables to SCHEMA_VERSION, or refuse the file without touching it. */
export function ensureSchema(db: SqlConnection, path: string): void {
  const pending = inspect(db, path);
  if (pending === SCHEMA_VERSION) return;
  transaction(db, "immediate", () => {
    // Another process may have migrated between our look and our lock.
    let version = inspect(db, path);
    while (version < SCHEMA_VERSION) {
      MIGRATIONS[version]!(db);
      version += 1;
      db.prepare(`INSERT INTO ${T_META} (key, value) VALUES ('schema_version', ?)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(version);
    }
    check(db, path);
  });
}

/**
 * Our schema version in this file (0 when none of our objects exist yet), or store_foreign_schema.
 * Read-only, so it can run before anything (even the journal mode) is changed in the file.
 */
export function inspect(db: SqlConnection, path: string): number {
  const rows = db
    .prepare("SELECT name, type FROM sqlite_master WHERE substr(name, 1, ?) = ?")
    .all(PREFIX.length, PREFIX) as unknown as Array<{ name: string; type: string }>;
  const ours = rows.map((r) => r.name);
  if (ours.length === 0) return 0;
  if (!ours.includes(T_META)) {
    throw foreign(path, `it has ${ours.join(", ")} but no ${T_META}`);
  }
  // A view or index under one of our table names passes a column check but cannot be written.
  for (const r of rows) {
    if (r.name in EXPECTED_COLUMNS && r.type !== "table") throw foreign(path, `${r.name} is a ${r.type}`);
  }
  // Look at the layout before querying it: a foreign meta table must read as foreign, not as an I/O fault.
  checkTable(db, path, T_META);
  const version = scalar(db.prepare(`SELECT value FROM ${T_META} WHERE key = 'schema_version'`));
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 1) {
    throw foreign(path, `${T_META} has no usable schema_version`);
  }
  if (version > SCHEMA_VERSION) {
    throw new CcrStoreError(
      "store_foreign_schema",
      `${path} holds CCR schema version ${version}, newer than this build's ${SCHEMA_VERSION}; upgrade caveman-mcp or use another --db`,
    );
  }
  // Entries and meta have not changed since v1; the outbox exists from v3 on.
  for (const table of Object.keys(EXPECTED_COLUMNS))
    if (table !== T_OUTBOX || version >= 3) checkTable(db, path, table);
  return version;
}

function check(db: SqlConnection, path: string): void {
  for (const table of Object.keys(EXPECTED_COLUMNS)) checkTable(db, path, table);
}

function checkTable(db: SqlConnection, path: string, table: string): void {
  const expected = EXPECTED_COLUMNS[table] ?? [];
  const columns = db
    .prepare("SELECT name FROM pragma_table_info(?)")
    .all(table)
    .map((r) => String(r.name));
  if (columns.join(",") !== expected.join(",")) {
    throw foreign(path, `table ${table} has columns (${columns.join(", ")}), not ours`);
  }
}

function foreign(path: string, why: string): CcrStoreError {
  return new CcrStoreError(
    "store_foreign_schema",
    `${path} is not usable as a CCR store: ${why}; nothing was changed. Point the store at another file`,
  );
}
