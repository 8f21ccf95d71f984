// The SQLite drivers the suites run against in this process. By default every driver that loads
// here (better-sqlite3 on Node 20; node:sqlite, and better-sqlite3 when its binding fits, on 22.13+).
// CCR_TEST_DRIVERS=node:sqlite,better-sqlite3 demands drivers: one that does not load fails the
// run instead of quietly shrinking it (the Node matrix in CI sets it). CCR_TEST_BETTER_SQLITE3_BINDING
// names a better_sqlite3.node built for this Node, for runs under a Node the install did not build for.
import { existsSync, writeFileSync } from "node:fs";
import type { SqlConnection, SqliteDriverName } from "../src/sqlite/driver.js";
import { selectDriver } from "../src/sqlite/select.js";

const ALL: SqliteDriverName[] = ["node:sqlite", "better-sqlite3"];

/** better_sqlite3.node to use in tests, when one was named. */
const testBinding: string | undefined = process.env.CCR_TEST_BETTER_SQLITE3_BINDING || undefined;

function loads(name: SqliteDriverName): boolean {
  try {
    selectDriver(name, testBinding);
    return true;
  } catch {
    return false;
  }
}

/** The drivers under test, in a stable order. */
export function testDrivers(): SqliteDriverName[] {
  const demanded = process.env.CCR_TEST_DRIVERS?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (demanded === undefined || demanded.length === 0) {
    const found = ALL.filter(loads);
    if (found.length === 0) throw new Error("no SQLite driver loads in this process");
    return found;
  }
  for (const name of demanded) {
    if (!ALL.includes(name as SqliteDriverName)) throw new Error(`CCR_TEST_DRIVERS: unknown driver ${name}`);
    // Throws store_driver_unavailable with the reason: a demanded driver must load.
    selectDriver(name as SqliteDriverName, testBinding);
  }
  return demanded as SqliteDriverName[];
}

/** Options that make openSqliteStore use `driver` (and the test binding, if any). */
export function driverOptions(driver: SqliteDriverName): {
  driver: SqliteDriverName;
  nativeBinding?: string;
} {
  return driver === "better-sqlite3" && testBinding !== undefined
    ? { driver, nativeBinding: testBinding }
    : { driver };
}

/** A plain connection to a file, behind the store's back (to inspect or damage it). */
export function rawConnection(driver: SqliteDriverName, path: string): SqlConnection {
  if (!existsSync(path)) writeFileSync(path, "", { mode: 0o600 });
  return selectDriver(driver, driver === "better-sqlite3" ? testBinding : undefined).open(path, {
    busyTimeoutMs: 5000,
    readOnly: false,
  });
}
