import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compress } from "@caveman/engine";
import { tempDir } from "@caveman/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { engineBudgetMs } from "./engine.js";
import { outputOf } from "./jobs.js";
import { EnginePool } from "./pool.js";

// The built worker script (tests run after the package's build, see turbo.json).
const workerUrl = new URL("../../dist/engine-worker.js", import.meta.url);

const pools: EnginePool[] = [];
function pool(options: ConstructorParameters<typeof EnginePool>[0] = {}): EnginePool {
  const p = new EnginePool({ workerUrl, size: 1, ...options });
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** A worker script of our own, for behaviours the real engine never shows (crashes, hangs). */
function scriptWorker(body: string): URL {
  const file = join(tempDir("cm-worker-"), "w.mjs");
  writeFileSync(
    file,
    `import { parentPort } from "node:worker_threads";\nparentPort.on("message", (m) => { ${body} });\nparentPort.postMessage({ ready: true });\n`,
  );
  return pathToFileURL(file);
}

/**
 * A worker that never finishes a job whose input starts with "spin" and answers any other job with
 * its input's length: deterministic slow work, whatever the engine's speed.
 */
function spinWorker(): URL {
  return scriptWorker(
    "if (m.job.input.startsWith('spin')) { for (;;) {} } parentPort.postMessage({ id: m.id, ok: true, answer: m.job.input.length });",
  );
}
const SPIN = `spin${"x".repeat(5000)}`;
const PLAIN = "y".repeat(5000);

const log = Array.from(
  { length: 3000 },
  (_, i) => `2026-12-01T10:00:${String(i % 60).padStart(2, "0")}Z INFO worker ${i % 7} handled request ok`,
).join("\n");

describe("engineBudgetMs", () => {
  it("gives the base up to one MiB, then the base per MiB, capped at eight times the base", () => {
    expect(engineBudgetMs(4000, 10)).toBe(4000);
    expect(engineBudgetMs(4000, 1024 * 1024)).toBe(4000);
    expect(engineBudgetMs(4000, 3 * 1024 * 1024)).toBe(12_000);
    expect(engineBudgetMs(4000, 100 * 1024 * 1024)).toBe(32_000);
  });
});

// Workers load the engine first (seconds on a loaded CI machine): generous test timeouts. Slow
// work comes from a worker of our own that spins, so no test depends on the engine's speed.
describe("EnginePool", { timeout: 60_000 }, () => {
  it("gives in a worker the very answer the engine gives inline, without copying an unchanged input back", async () => {
    const engine = pool();
    const outcome = await engine.run({ op: "compress", input: log, options: { handle: "ccr_x" } });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outputOf(outcome.value, log)).toBe(compress(log, { handle: "ccr_x" }).output);
    const plain = "word ".repeat(1000);
    const same = await engine.run({ op: "compress", input: plain, options: {} });
    expect(same.ok && same.value.same).toBe(true);
    expect(engine.stats()).toMatchObject({ jobs_in_workers: 2, workers_started: 1, workers_live: 1 });
  });

  it("runs short inputs inline and starts no worker for them", async () => {
    const engine = pool();
    const outcome = await engine.run({ op: "count", input: "hello world" });
    expect(outcome).toEqual({ ok: true, value: 2 });
    expect(engine.stats()).toMatchObject({ jobs_inline: 1, workers_started: 0 });
  });

  it("stops a call past its budget, terminates the worker, and serves the next call from a fresh one", async () => {
    const engine = pool({ timeoutMs: 300, workerUrl: spinWorker() });
    const started = Date.now();
    const slow = await engine.run({ op: "count", input: SPIN });
    expect(slow).toMatchObject({ ok: false, why: "timeout", budgetMs: 300 });
    // Worker start-up is not charged to the call; the run itself is cut at the budget.
    expect(Date.now() - started).toBeLessThan(300 + 20_000);
    expect(engine.stats()).toMatchObject({ timeouts: 1, workers_stopped: 1, workers_live: 0 });
    const next = await engine.run({ op: "count", input: PLAIN });
    expect(next).toEqual({ ok: true, value: PLAIN.length });
    expect(engine.stats().workers_started).toBe(2);
  });

  it("stops the worker when the caller aborts", async () => {
    const engine = pool({ timeoutMs: 60_000, workerUrl: spinWorker() });
    const abort = new AbortController();
    const running = engine.run({ op: "count", input: SPIN }, abort.signal);
    // Abort once the job is really running in the worker (after start-up).
    while (engine.stats().workers_busy === 0) await sleep(20);
    abort.abort();
    expect(await running).toMatchObject({ ok: false, why: "cancelled" });
    expect(engine.stats()).toMatchObject({ cancelled: 1, workers_stopped: 1, workers_live: 0 });
  });

  it("terminates a worker stuck in a backtracking regular expression", async () => {
    const engine = pool({ timeoutMs: 200, workerUrl: scriptWorker("/(a+)+$/.test('a'.repeat(40) + 'b');") });
    const outcome = await engine.run({ op: "count", input: "x".repeat(5000) });
    expect(outcome).toMatchObject({ ok: false, why: "timeout" });
    expect(engine.stats().workers_stopped).toBe(1);
  });

  it("fails a call open when its worker crashes, and starts a new worker for the next one", async () => {
    const engine = pool({ workerUrl: scriptWorker("process.exit(3);") });
    const outcome = await engine.run({ op: "count", input: "x".repeat(5000) });
    expect(outcome).toMatchObject({ ok: false, why: "failed" });
    const again = await engine.run({ op: "count", input: "x".repeat(5000) });
    expect(again).toMatchObject({ ok: false, why: "failed" });
    expect(engine.stats()).toMatchObject({ failed: 2, workers_started: 2 });
  });

  it("fails calls open, without hanging, when no worker can start", async () => {
    const engine = pool({ workerUrl: pathToFileURL(join(tmpdir(), "no-such-worker-here.mjs")) });
    const outcome = await engine.run({ op: "count", input: "x".repeat(5000) });
    expect(outcome).toMatchObject({ ok: false, why: "failed" });
  });

  it("bounds the wait behind a busy worker by the call's budget", async () => {
    const engine = pool({ timeoutMs: 400, workerUrl: spinWorker() });
    const first = engine.run({ op: "count", input: SPIN });
    const second = engine.run({ op: "count", input: PLAIN });
    expect(await first).toMatchObject({ ok: false, why: "timeout" });
    expect(await second).toMatchObject({ ok: false, why: "timeout" });
  });

  it("answers calls in flight with a failure when closed", async () => {
    const engine = pool({ timeoutMs: 60_000, workerUrl: spinWorker() });
    const running = engine.run({ op: "count", input: SPIN });
    await sleep(50);
    await engine.close();
    expect(await running).toMatchObject({ ok: false, why: "failed" });
    expect(await engine.run({ op: "count", input: "x".repeat(5000) })).toMatchObject({ ok: false });
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
