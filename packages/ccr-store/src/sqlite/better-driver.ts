// The better-sqlite3 driver: the native addon, for Node lines without node:sqlite (Node 20).
// Importing the package loads only its JavaScript; the compiled binding is loaded by the first
// `new Database`, which is where a binding built for another Node fails. `nativeBinding` names
// a prebuilt .node file (platform packages ship their own).
import Database from "better-sqlite3";
import type { ConnectOptions, SqlConnection, SqlDriver, SqlRow, SqlStatement, SqlValue } from "./driver.js";

/** The better-sqlite3 driver; `probe` loads the binding once so a bad one fails here, not later. */
export function betterSqliteDriver(nativeBinding: string | undefined): SqlDriver & { probe(): void } {
  const binding = nativeBinding === undefined ? {} : { nativeBinding };
  return {
    name: "better-sqlite3",
    probe(): void {
      new Database(":memory:", binding).close();
    },
    open(path: string, opts: ConnectOptions): SqlConnection {
      const db = new Database(path, {
        fileMustExist: true,
        readonly: opts.readOnly,
        timeout: opts.busyTimeoutMs,
        ...binding,
      });
      return {
        driver: "better-sqlite3",
        exec: (sql) => {
          db.exec(sql);
        },
        prepare(sql): SqlStatement {
          const stmt = db.prepare<SqlValue[], SqlRow>(sql);
          return {
            run: (...p) => {
              stmt.run(...p);
            },
            get: (...p) => stmt.get(...p),
            all: (...p) => stmt.all(...p),
            iterate: (...p) => stmt.iterate(...p),
          };
        },
        close: () => {
          db.close();
        },
      };
    },
  };
}
