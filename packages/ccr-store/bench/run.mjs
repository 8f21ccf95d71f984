// `pnpm --filter @caveman/ccr-store bench`: puts and gets per second for 1 KB and 1 MB originals,
// memory and SQLite in one process, and SQLite shared by two processes at once (bench/worker.mjs,
// phases started together). Imports the built dist/, so run `pnpm build` first (turbo's bench
// task depends on build). Prints a table and records it under the "ccr-store" section.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, printTable, writeResults } from "@caveman/bench";
import { openMemoryStore } from "../dist/index.js";
import { openSqliteStore } from "../dist/sqlite.js";

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = [
  { label: "1 KB", bytes: 1024, count: 5000 },
  { label: "1 MB", bytes: 1024 * 1024, count: 150 },
];
const exact = (count) => ({ iterations: count, warmup: 0, minMs: Number.POSITIVE_INFINITY });

async function singleProcess(backend, open, { label, bytes, count }) {
  const store = open();
  const originals = Array.from({ length: count }, () => new Uint8Array(randomBytes(bytes)));
  const handles = [];
  let p = 0;
  const puts = await measure(() => handles.push(store.put(originals[p++]).handle), exact(count));
  let g = 0;
  const gets = await measure(() => store.get(handles[(g++ * 7919) % count]), exact(count));
  store.close();
  return row(backend, "1", label, puts.opsPerSec, gets.opsPerSec, puts.p99Ms, gets.p99Ms);
}

async function twoProcesses(path, { label, bytes, count }) {
  const workers = [0, 1].map(() => startWorker(path, bytes, count));
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
  return row(
    "sqlite",
    "2",
    label,
    phases.put.opsPerSec,
    phases.get.opsPerSec,
    phases.put.p99Ms,
    phases.get.p99Ms,
  );
}

function startWorker(path, bytes, count) {
  const child = spawn(process.execPath, [join(here, "worker.mjs"), path, String(bytes), String(count)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
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

function row(backend, processes, size, puts, gets, putP99, getP99) {
  return {
    backend,
    processes,
    size,
    "puts/s": Math.round(puts),
    "gets/s": Math.round(gets),
    "put p99 ms": putP99,
    "get p99 ms": getP99,
  };
}

const dir = mkdtempSync(join(tmpdir(), "ccr-bench-"));
try {
  const rows = [];
  for (const size of SIZES) {
    rows.push(await singleProcess("memory", () => openMemoryStore(), size));
    const single = join(dir, `single-${size.bytes}.db`);
    rows.push(await singleProcess("sqlite", () => openSqliteStore({ path: single }), size));
    rows.push(await twoProcesses(join(dir, `shared-${size.bytes}.db`), size));
  }
  printTable(
    "ccr-store: puts and gets per second (SQLite WAL, synchronous=NORMAL; 2 processes = aggregate)",
    rows,
  );
  writeResults("ccr-store", rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
