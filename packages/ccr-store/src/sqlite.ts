// Public API of the subpath @caveman/ccr-store/sqlite: everything here is public. Kept apart from
// the root entry so that importing @caveman/ccr-store never loads a SQLite library.

export type { SqliteDriverChoice, SqliteDriverName } from "./sqlite/driver.js";
export { nodeHasSqlite } from "./sqlite/node-driver.js";
export { SCHEMA_VERSION } from "./sqlite/schema.js";
export { openSqliteStore, type SqliteCcrStore, type SqliteStoreOptions } from "./sqlite/store.js";
