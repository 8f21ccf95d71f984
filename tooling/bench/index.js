// Bench harness shared by every package's `pnpm bench`: time a function, print a table,
// and record the figures under bench/results/<section>.json at the workspace root, which
// tooling/bench/collect.mjs merges into bench/results.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Run fn repeatedly and return per-operation timing.
 * @param {() => unknown | Promise<unknown>} fn
 * @param {{ iterations?: number, warmup?: number, minMs?: number }} [opts]
 */
export async function measure(fn, opts = {}) {
  const warmup = opts.warmup ?? 3;
  const minMs = opts.minMs ?? 300;
  const maxIterations = opts.iterations ?? 100_000;
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  const started = performance.now();
  while (samples.length < maxIterations) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    if (performance.now() - started >= minMs && samples.length >= 5) break;
  }
  return summarize(samples);
}

/** @param {number[]} samples milliseconds */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    n: samples.length,
    meanMs: total / samples.length,
    p50Ms: pick(0.5),
    p99Ms: pick(0.99),
    opsPerSec: (samples.length * 1000) / total,
  };
}

/** Print rows (objects with the same keys) as an aligned table on stdout. */
export function printTable(title, rows) {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const fmt = (v) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v));
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => fmt(r[k]).length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  process.stdout.write(`\n${title}\n${line(keys)}\n${line(widths.map((w) => "-".repeat(w)))}\n`);
  for (const r of rows) process.stdout.write(`${line(keys.map((k) => fmt(r[k])))}\n`);
}

/** Record a section of results; collect.mjs merges all sections into bench/results.json. */
export function writeResults(section, data) {
  const dir = join(workspaceRoot, "bench", "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${section}.json`),
    `${JSON.stringify({ section, at: new Date().toISOString(), data }, null, 2)}\n`,
  );
}
