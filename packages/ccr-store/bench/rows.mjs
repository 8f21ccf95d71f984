// One Node's share of the ccr-store bench: puts and gets per second for 1 KB and 1 MB originals,
// for each backend named on the command line (memory, node:sqlite, better-sqlite3), in one
// process and (SQLite) shared by two processes at once (bench/worker.mjs, phases started
// together). Prints the rows as one JSON line on stdout; bench/run.mjs runs it under each Node.
//   node bench/rows.mjs memory better-sqlite3     node bench/rows.mjs node:sqlite
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure } from "@caveman/bench";
import { openMemoryStore } from "../dist/index.js";
import { openSqliteStore } from "../dist/sqlite.js";

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = [
  { label: "1 KB", bytes: 1024, count: 5000 },
  { label: "1 MB", bytes: 1024 * 1024, count: 150 },
];
const exact = (count) => ({ iterations: count, warmup: 0, minMs: Number.POSITIVE_INFINITY });
const node = `${process.versions.node}`;

async function singleProcess(backend, open, { label, bytes, count }) {
  const store = open();
  const originals = Array.from({ length: count }, () => new Uint8Array(randomBytes(bytes)));
  const handles = [];
  let p = 0;
  const puts = await measure(() => handles.push(store.put(originals[p++]).handle), exact(count));
  let g = 0;
  const gets = await measure(() => store.get(handles[(g++ * 7919) % count]), exact(count));
  store.close();
  return row(backend, "1", label, puts, gets);
}

async function twoProcesses(driver, path, { label, bytes, count }) {
  const workers = [0, 1].map(() => startWorker(driver, path, bytes, count));
  const phases = {};
  for (const phase of ["put", "get"]) {
    await Promise.all(workers.map((w) => w.next("ready")));
    const t0 = performance.now();
    for (const w of workers) w.child.stdin.write("go\n");
    const results = await Promise.all(workers.map((w) => w.next("phase")));
    const wallMs = performance.now() - t0;
    phases[phase] = {
      opsPerSec: (2 * count * 1000) / wallMs,
      p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    };
  }
  await Promise.all(workers.map((w) => w.exited));
  return row(driver, "2", label, phases.put, phases.get);
}

function startWorker(driver, path, bytes, count) {
  const args = [join(here, "worker.mjs"), driver, path, String(bytes), String(count)];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
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

function row(backend, processes, size, puts, gets) {
  return {
    backend,
    node,
    processes,
    size,
    "puts/s": Math.round(puts.opsPerSec),
    "gets/s": Math.round(gets.opsPerSec),
    "put p99 ms": puts.p99Ms,
    "get p99 ms": gets.p99Ms,
  };
}

const backends = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "ccr-bench-"));
try {
  const rows = [];
  for (const size of SIZES) {
    for (const backend of backends) {
      if (backend === "memory") {
        rows.push(await singleProcess("memory", () => openMemoryStore(), size));
        continue;
      }
      const single = join(dir, `single-${backend.replace(":", "-")}-${size.bytes}.db`);
      rows.push(await singleProcess(backend, () => openSqliteStore({ path: single, driver: backend }), size));
      const shared = join(dir, `shared-${backend.replace(":", "-")}-${size.bytes}.db`);
      rows.push(await twoProcesses(backend, shared, size));
    }
  }
  process.stdout.write(`${JSON.stringify(rows)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
