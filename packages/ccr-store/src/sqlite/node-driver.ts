// The node:sqlite driver (Node 22.13+, no native addon of ours). The module is fetched with
// process.getBuiltinModule, never imported statically, so this file loads on Node 20 too, where
// the module does not exist. Node 22 prints an ExperimentalWarning when the module first loads;
// that one warning (type ExperimentalWarning, about SQLite) is dropped, every other passes on.
import { pathToFileURL } from "node:url";
import {
  adaptStatement,
  type ConnectOptions,
  type NativeStatement,
  readOnlyWithoutWal,
  type SqlConnection,
  type SqlDriver,
} from "./driver.js";

// The part of node:sqlite we use (@types/node 20 does not describe the module).
type NodeStatementSync = NativeStatement;
interface NodeDatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): NodeStatementSync;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (path: string, opts: { open?: boolean; readOnly?: boolean }) => NodeDatabaseSync;
}

/** First Node release of each line with node:sqlite unflagged (22.13, 23.4; every line after). */
export function nodeHasSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (major >= 24) return true;
  if (major === 23) return minor >= 4;
  return major === 22 && minor >= 13;
}

let cached: NodeSqliteModule | null | undefined;

/** node:sqlite, or null when this Node does not have it (Node 20, 22 before 22.13, or disabled). */
function loadNodeSqlite(): NodeSqliteModule | null {
  if (cached !== undefined) return cached;
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== "function") {
    cached = null;
    return cached;
  }
  const emitWarning = process.emitWarning;
  // Only while the module loads: the warning is emitted synchronously from its first load.
  process.emitWarning = function quietSqlite(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const first = rest[0];
    const type =
      typeof first === "string" ? first : ((first as { type?: unknown } | undefined)?.type ?? undefined);
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && /\bSQLite\b/.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const mod = getBuiltin.call(process, "node:sqlite") as NodeSqliteModule | undefined;
    cached = mod !== undefined && typeof mod.DatabaseSync === "function" ? mod : null;
  } catch {
    cached = null;
  } finally {
    process.emitWarning = emitWarning;
  }
  return cached;
}

/** The node:sqlite driver, or null when this Node has no node:sqlite. */
export function nodeSqliteDriver(): SqlDriver | null {
  const mod = loadNodeSqlite();
  if (mod === null) return null;
  return {
    name: "node:sqlite",
    open(path: string, opts: ConnectOptions): SqlConnection {
      const connect = (location: string): NodeDatabaseSync => {
        const db = new mod.DatabaseSync(location, { open: true, readOnly: opts.readOnly });
        try {
          // The constructor's own timeout option only exists from 22.16; the pragma works everywhere.
          db.exec(`PRAGMA busy_timeout = ${Math.floor(opts.busyTimeoutMs)}`);
          if (opts.readOnly) db.prepare("SELECT count(*) FROM sqlite_master").get();
        } catch (err) {
          db.close();
          throw err;
        }
        return db;
      };
      let db: NodeDatabaseSync;
      try {
        db = connect(path);
      } catch (err) {
        if (!readOnlyWithoutWal(err, path, opts)) throw err;
        // A WAL database in a directory we cannot write, closed cleanly (no -wal): SQLite cannot
        // create the -shm it wants, but the file alone is complete, so read it as immutable.
        db = connect(`${pathToFileURL(path).href}?immutable=1`);
      }
      return {
        driver: "node:sqlite",
        exec: (sql) => db.exec(sql),
        prepare: (sql) => adaptStatement(db.prepare(sql)),
        close: () => db.close(),
      };
    },
  };
}
