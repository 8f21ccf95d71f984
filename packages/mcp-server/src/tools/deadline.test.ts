import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openMemoryStore } from "@caveman/ccr-store";
import { tempDir } from "@caveman/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { Session } from "../session.js";
import { type Engine, inlineEngine } from "../work/engine.js";
import type { EngineJob } from "../work/jobs.js";
import { EnginePool } from "../work/pool.js";
import { createCavemanTools } from "./index.js";

const signal = new AbortController().signal;
const logs = Array.from(
  { length: 400 },
  (_, i) => `2024-05-01T10:00:${String(i % 60).padStart(2, "0")}Z INFO worker-${i % 4} job ${i} ok`,
).join("\n");

/** The real engine, except that the listed operations run out of time (as a slow input would). */
function outOfTimeFor(ops: EngineJob["op"][]): Engine {
  const real = inlineEngine();
  return {
    ...real,
    run: (job, s) =>
      ops.includes(job.op)
        ? Promise.resolve({ ok: false, why: "timeout", budgetMs: 1234, message: "took too long" })
        : real.run(job, s),
  };
}

function setup(engine: Engine) {
  const ccr = openMemoryStore();
  const tools = createCavemanTools({
    families: ["compress"],
    session: new Session(),
    ccr,
    store: { backend: "memory" },
    engine,
  });
  return { ccr, reg: new ToolRegistry({ tools, logger: silentLogger, maxResultBytes: 1 << 24 }) };
}

const texts = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((b) => b.text ?? "");

const pools: EnginePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe("engine calls past their deadline", () => {
  it("compress gives the input back unchanged with reason timeout and stores nothing", async () => {
    const { ccr, reg } = setup(outOfTimeFor(["compress"]));
    const r = await reg.callTool("caveman_compress", { input: logs }, { signal });
    expect(r.isError).toBeFalsy();
    const [output, note] = texts(r);
    expect(output).toBe(logs);
    expect(note).toMatch(
      /^\[caveman: not compressed \(timeout\); text; about \d+ tokens; no recovery_handle\]$/,
    );
    expect(ccr.stats().entries).toBe(0);
    const stats = await reg.callTool("caveman_stats", {}, { signal });
    expect(stats.structuredContent).toMatchObject({ pass_reasons: { timeout: 1 }, compressed: 0 });
  });

  it("compress in a worker that runs past its budget: input unchanged, nothing stored, worker stopped", {
    timeout: 60_000,
  }, async () => {
    // A worker that never answers stands for an input the engine is slow on, whatever its speed.
    const file = join(tempDir("cm-spin-"), "spin.mjs");
    writeFileSync(
      file,
      'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => { for (;;) {} });\nparentPort.postMessage({ ready: true });\n',
    );
    const pool = new EnginePool({ timeoutMs: 300, size: 1, workerUrl: pathToFileURL(file) });
    pools.push(pool);
    const { ccr, reg } = setup(pool);
    const r = await reg.callTool("caveman_compress", { input: logs }, { signal });
    expect(texts(r)[0]).toBe(logs);
    expect(texts(r)[1]).toContain("not compressed (timeout)");
    expect(ccr.stats().entries).toBe(0);
    const stats = await reg.callTool("caveman_stats", {}, { signal });
    expect(stats.structuredContent).toMatchObject({ engine: { timeouts: 1, workers_stopped: 1 } });
  });

  it("retrieve with a query past its deadline returns a small original whole and says why", async () => {
    const { ccr, reg } = setup(outOfTimeFor(["narrow"]));
    const small = logs.split("\n").slice(0, 100).join("\n");
    const { handle } = await ccr.put(small);
    const r = await reg.callTool(
      "caveman_retrieve",
      { recovery_handle: handle, query: "job 7 " },
      { signal },
    );
    expect(r.isError).toBeFalsy();
    expect(texts(r)).toEqual([
      small,
      "[caveman: narrowing by this query took longer than 1234 ms; returning the full original]",
    ]);
  });

  it("retrieve with a query past its deadline never returns an original over a page: it points at page:1", async () => {
    const { reg } = setup(outOfTimeFor(["narrow"]));
    const c = await reg.callTool("caveman_compress", { input: logs }, { signal });
    const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(texts(c)[0] ?? "")?.[1];
    const r = await reg.callTool(
      "caveman_retrieve",
      { recovery_handle: handle, query: "job 7 " },
      { signal },
    );
    expect(r.isError).toBeFalsy();
    expect(texts(r)).toEqual([
      `[caveman: narrowing by this query took longer than 1234 ms; the original is ${logs.length} characters, over one page; ask query "page:1" for it page by page]`,
    ]);
  });

  it("TOON encode passes the input through with a note; decode fails with cave_engine_timeout", async () => {
    const { reg } = setup(outOfTimeFor(["toon_encode", "toon_decode"]));
    const json = JSON.stringify({ a: [1, 2, 3] });
    const e = await reg.callTool("caveman_toon_encode", { input: json }, { signal });
    expect(e.isError).toBeFalsy();
    expect(texts(e)[0]).toBe(json);
    expect(texts(e)[1]).toMatch(
      /^\[caveman: not encoded \(timeout: took longer than 1234 ms\); input returned unchanged;/,
    );
    const d = await reg.callTool("caveman_toon_decode", { input: "a: 1" }, { signal });
    expect(d.isError).toBe(true);
    expect(texts(d)[0]).toMatch(/^cave_engine_timeout: /);
  });
});
