// The better-sqlite3 driver: the native addon, for Node lines without node:sqlite (Node 20).
// Importing the package loads only its JavaScript; the compiled binding is loaded by the first
// `new Database`, which is where a binding built for another Node fails. `nativeBinding` names
// a prebuilt .node file (platform packages ship their own).
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import {
  adaptStatement,
  type ConnectOptions,
  readOnlyWithoutWal,
  type SqlConnection,
  type SqlDriver,
  type SqlValue,
} from "./driver.js";

/** The better-sqlite3 driver; `probe` loads the binding once so a bad one fails here, not later. */
export function betterSqliteDriver(nativeBinding: string | undefined): SqlDriver & { probe(): void } {
  const binding = nativeBinding === undefined ? {} : { nativeBinding };
  return {
    name: "better-sqlite3",
    probe(): void {
      new Database(":memory:", binding).close();
    },
    open(path: string, opts: ConnectOptions): SqlConnection {
      let db: Database.Database;
      try {
        db = new Database(path, {
          fileMustExist: true,
          readonly: opts.readOnly,
          timeout: opts.busyTimeoutMs,
          ...binding,
        });
        if (opts.readOnly) db.prepare("SELECT count(*) FROM sqlite_master").get();
      } catch (err) {
        if (!readOnlyWithoutWal(err, path, opts)) throw err;
        // A WAL database in a directory we cannot write, closed cleanly (no -wal): SQLite cannot
        // create the -shm it wants. better-sqlite3 takes no URI (immutable=1), so read a copy of
        // the complete file in memory, its header marked as a rollback-journal file (bytes 18-19).
        const image = readFileSync(path);
        if (image.byteLength >= 20) image.fill(1, 18, 20);
        db = new Database(image, { readonly: true, ...binding });
      }
      return {
        driver: "better-sqlite3",
        exec: (sql) => {
          db.exec(sql);
        },
        prepare: (sql) => adaptStatement(db.prepare<SqlValue[]>(sql)),
        close: () => {
          db.close();
        },
      };
    },
  };
}
