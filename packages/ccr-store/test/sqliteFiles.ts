// Test helpers for the SQLite store's tests: a fresh temp directory per test with `path` naming
// ccr.db inside it, and the store and raw connections on one driver.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { SqlConnection, SqliteDriverName } from "../src/sqlite/driver.js";
import { openSqliteStore as openAny, type SqliteStoreOptions } from "../src/sqlite/store.js";
import { driverOptions, rawConnection } from "./drivers.js";
import { tempDir } from "./helpers.js";

export let dir: string;
export let path: string;

/** Gives every test of the calling file a fresh temp `dir`, removed after it, and `path` in it. */
export function useTempDb(): void {
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    path = join(dir, "ccr.db");
  });
  afterEach(() => cleanup());
}

/** A raw connection and a store opener that both use `driver`. */
export function onDriver(driver: SqliteDriverName) {
  const raw = (p = path): SqlConnection => rawConnection(driver, p);
  const openSqliteStore = (opts: SqliteStoreOptions) => openAny({ ...driverOptions(driver), ...opts });
  return { raw, openSqliteStore };
}

export function rmIfThere(file: string): void {
  rmSync(file, { force: true });
}
