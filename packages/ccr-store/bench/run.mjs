// `pnpm --filter @caveman/ccr-store bench`: puts and gets per second, with p99, for 1 KB and 1 MB
// originals, on memory, SQLite and the Redis team store (a real redis-server on loopback started
// here), with 1 and 4 client processes (bench/worker.mjs; each phase starts in all of them at
// once; figures are the aggregate over the wall time of the phase, p99 the worst worker's).
// Memory is private to each process, so its 4-process row is four independent stores. SQLite runs
// on both drivers: better-sqlite3 under this Node, node:sqlite under this Node when it has it,
// else under the Node in CAVEMAN_BENCH_NODE or the Node 24 that tooling/scripts/node-matrix.sh
// installs (the rows are left out, with a notice, when there is none). Imports
// the built dist/, so run `pnpm build` first (turbo's bench task depends on build). Prints one
// table and records it under the "ccr-store" section.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, writeResults } from "@caveman/bench";
import { startRedis } from "@caveman/test-redis";
import { nodeHasSqlite } from "../dist/sqlite.js";

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = [
  { label: "1 KB", bytes: 1024, count: 2000 },
  { label: "1 MB", bytes: 1024 * 1024, count: 40 },
];
const PROCESSES = [1, 4];

/** The Node that runs node:sqlite rows: this one when it has the module, else a newer one. */
function sqliteNode() {
  if (nodeHasSqlite(process.version)) return process.execPath;
  const candidates = [
    process.env.CAVEMAN_BENCH_NODE,
    join(here, "..", "..", "..", ".cache", "node-matrix", "node-24.22.3", "package", "bin", "node"),
  ];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}
const nodeFor = { "node:sqlite": sqliteNode() };
const BACKENDS = ["memory", "better-sqlite3", "node:sqlite", "redis"].filter((b) => nodeFor[b] !== null);
if (nodeFor["node:sqlite"] === null)
  process.stderr.write(
    "ccr-store bench: no Node 22.13+ for the node:sqlite rows; set CAVEMAN_BENCH_NODE or run tooling/scripts/node-matrix.sh once\n",
  );

async function phases(backend, target, processes, { bytes, count }) {
  const workers = Array.from({ length: processes }, () => startWorker(backend, target, bytes, count));
  const out = {};
  for (const phase of ["put", "get"]) {
    await Promise.all(workers.map((w) => w.next("ready")));
    const t0 = performance.now();
    for (const w of workers) w.child.stdin.write("go\n");
    const results = await Promise.all(workers.map((w) => w.next("phase")));
    const wallMs = performance.now() - t0;
    out[phase] = {
      opsPerSec: (processes * count * 1000) / wallMs,
      p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    };
  }
  await Promise.all(workers.map((w) => w.exited));
  return out;
}

function startWorker(backend, target, bytes, count) {
  const child = spawn(
    nodeFor[backend] ?? process.execPath,
    [join(here, "worker.mjs"), backend, target, String(bytes), String(count)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const queue = [];
  const waiting = [];
  let buf = "";
  child.stdout.on("data", (d) => {
    buf += d.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(msg);
      else queue.push(msg);
    }
  });
  const exited = new Promise((resolve, reject) =>
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`bench worker exited ${code}`)))),
  );
  const next = async (key) => {
    const msg = queue.shift() ?? (await new Promise((resolve) => waiting.push(resolve)));
    if (!(key in msg)) throw new Error(`bench worker said ${JSON.stringify(msg)}, expected ${key}`);
    return msg;
  };
  return { child, next, exited };
}

const dir = mkdtempSync(join(tmpdir(), "ccr-bench-"));
const redis = await startRedis();
try {
  const rows = [];
  for (const size of SIZES) {
    for (const processes of PROCESSES) {
      const targets = {
        memory: "-",
        "better-sqlite3": join(dir, `bsqlite-${size.bytes}-${processes}.db`),
        "node:sqlite": join(dir, `nsqlite-${size.bytes}-${processes}.db`),
        redis: `${redis.url}?namespace=bench-${size.bytes}-${processes}`,
      };
      for (const backend of BACKENDS) {
        const r = await phases(backend, targets[backend], processes, size);
        rows.push({
          backend,
          processes: String(processes),
          size: size.label,
          "puts/s": Math.round(r.put.opsPerSec),
          "gets/s": Math.round(r.get.opsPerSec),
          "put p99 ms": r.put.p99Ms,
          "get p99 ms": r.get.p99Ms,
        });
      }
      await redis.cli(["FLUSHALL"]);
    }
  }
  printTable(
    "ccr-store: puts and gets per second through the async contract (SQLite WAL synchronous=NORMAL; Redis 7 on loopback; N processes = aggregate)",
    rows,
  );
  writeResults("ccr-store", rows);
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
