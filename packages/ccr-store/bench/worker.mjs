// One benchmark process: opens the store on the named driver, makes `count` distinct originals of `size` bytes, then
// waits for "go" on stdin before each phase (puts, then gets) so that two workers run each phase
// at the same time. Reports each phase's timing as one JSON line on stdout.
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { measure } from "@caveman/bench";
import { openSqliteStore } from "../dist/sqlite.js";

const [driver, path, sizeArg, countArg] = process.argv.slice(2);
const size = Number(sizeArg);
const count = Number(countArg);
const store = openSqliteStore({ path, driver });
const originals = Array.from({ length: count }, () => new Uint8Array(randomBytes(size)));
const handles = [];
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const go = async () => {
  say({ ready: true });
  await lines.next();
};

await go();
let p = 0;
const puts = await measure(() => handles.push(store.put(originals[p++]).handle), {
  iterations: count,
  warmup: 0,
  minMs: Number.POSITIVE_INFINITY,
});
say({ phase: "put", ...puts });
await go();
let g = 0;
const gets = await measure(
  () => {
    if (store.get(handles[(g++ * 7919) % count]) === null) throw new Error("lost a handle");
  },
  { iterations: count, warmup: 0, minMs: Number.POSITIVE_INFINITY },
);
say({ phase: "get", ...gets });
store.close();
process.exit(0);
