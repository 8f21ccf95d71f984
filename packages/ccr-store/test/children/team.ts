// Child process for the outbox tests (bundled to .mjs by test/setup/build-children.ts): a process
// on one SQLite file with a team store behind it, which leaves without closing anything (as a
// hook process or a killed server would).
//   put <db> <url> <ns> <id> <n> <write|queue>   n puts; print the handles; exit at once
//   send <db> <url> <ns>                         one send round; print how many were sent
import { openTieredStore } from "../../src/index.js";
import { openRedisStore } from "../../src/redis.js";
import { openSqliteStore } from "../../src/sqlite.js";
import { originalFor } from "./originals.js";

const [mode, db, url, namespace, id, n, putMode] = process.argv.slice(2);
const out = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};
const team = openRedisStore({
  url: url!,
  namespace: namespace!,
  commandTimeoutMs: 1000,
  connectTimeoutMs: 500,
});
const store = openTieredStore({
  local: openSqliteStore({ path: db! }),
  team,
  putMode: putMode === "queue" ? "queue" : "write",
});
if (mode === "put") {
  const handles: string[] = [];
  for (let i = 0; i < Number(n); i++) handles.push((await store.put(originalFor(id!, i))).handle);
  process.stdout.write(`${JSON.stringify({ handles, pending: store.pending() })}\n`, () => process.exit(0));
} else if (mode === "send") {
  await team.ready(10_000).catch(() => undefined);
  const sent = await store.flush();
  out({ sent, pending: store.pending() });
  await store.close();
}
