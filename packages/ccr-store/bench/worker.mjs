// One benchmark process: opens a store (memory, SQLite on a named driver, or the Redis team store, each through
// the asynchronous contract), makes `count` distinct originals of `size` bytes, then waits for
// "go" on stdin before each phase (puts, then gets) so that several workers run each phase at
// the same time. Reports each phase's timing as one JSON line on stdout.
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { measure } from "@caveman/bench";
import { openMemoryStore, toAsync } from "../dist/index.js";
import { openRedisStore } from "../dist/redis.js";
import { openSqliteStore } from "../dist/sqlite.js";

const [backend, target, sizeArg, countArg] = process.argv.slice(2);
const size = Number(sizeArg);
const count = Number(countArg);
const openers = {
  memory: () => toAsync(openMemoryStore()),
  "better-sqlite3": () => toAsync(openSqliteStore({ path: target, driver: "better-sqlite3" })),
  "node:sqlite": () => toAsync(openSqliteStore({ path: target, driver: "node:sqlite" })),
  redis: () => openRedisStore({ url: target, commandTimeoutMs: 10_000 }),
};
const store = openers[backend]();
if (backend === "redis") await store.ready(10_000);
const originals = Array.from({ length: count }, () => new Uint8Array(randomBytes(size)));
const handles = [];
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const go = async () => {
  say({ ready: true });
  await lines.next();
};
const exact = { iterations: count, warmup: 0, minMs: Number.POSITIVE_INFINITY };

await go();
let p = 0;
const puts = await measure(async () => handles.push((await store.put(originals[p++])).handle), exact);
say({ phase: "put", ...puts });
await go();
let g = 0;
const gets = await measure(async () => {
  if ((await store.get(handles[(g++ * 7919) % count])) === null) throw new Error("lost a handle");
}, exact);
say({ phase: "get", ...gets });
await store.close();
process.exit(0);
