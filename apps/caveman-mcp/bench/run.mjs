// Bench of the built binary over real stdio: tools/list size in o200k tokens (per family and all),
// tools/call round trip of caveman_compress for 1 KB and 1 MB inputs (p50/p99), and cold start
// (spawn to the first tools/list answer), and hostile inputs (time to result, worst ping during it,
// peak RSS). With CAVEMAN_BENCH_BASELINE_CLI=<another build's dist/cli.js> (e.g. main's), cold start
// and hostile inputs also run on that build, in the same run, as the "before" column.
// Figures go to bench/results/mcp-server.json.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measure, printTable, summarize, writeResults } from "@caveman/bench";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer";
import { HOSTILE_INPUTS, hostileRow, sizeMb } from "./hostile.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const base = mkdtempSync(join(tmpdir(), "caveman-mcp-bench-"));
const env = {
  PATH: process.env.PATH ?? "",
  HOME: base,
  CAVEMAN_CCR_DB: join(base, "ccr.db"),
  CAVEMAN_CHIP_DIR: join(base, "chips"),
  CAVEMAN_ROOTS: base,
};

async function connect(extraEnv = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    env: { ...env, ...extraEnv },
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function logText(bytes, salt) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `2024-05-01T10:${String(i % 60).padStart(2, "0")}:00Z INFO worker-${i % 4} job ${salt}-${i} done in ${(i * 37) % 500}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n").slice(0, bytes);
}

// 1. tools/list tokens
const tokens = {};
for (const [label, tools] of [
  ["compress", "compress"],
  ["edit", "edit"],
  ["all", "compress,edit"],
]) {
  const c = await connect({ CAVEMAN_TOOLS: tools });
  const list = await c.listTools();
  tokens[label] = { tools: list.tools.length, tokens: countTokens(JSON.stringify(list)) };
  await c.close();
}
printTable(
  "tools/list prefix (o200k tokens)",
  Object.entries(tokens).map(([family, v]) => ({ family, tools: v.tools, tokens: v.tokens })),
);

// 2. tools/call round trip over stdio
const client = await connect();
const roundTrip = {};
for (const [label, bytes, opts] of [
  ["1KB", 1024, { minMs: 2000, iterations: 400 }],
  ["1MB", 1024 * 1024, { minMs: 4000, iterations: 30, warmup: 1 }],
]) {
  let n = 0;
  const t = await measure(async () => {
    // A fresh input each call, so the store's dedupe never turns the call into a cache hit.
    await client.callTool({ name: "caveman_compress", arguments: { input: logText(bytes, n++) } });
  }, opts);
  roundTrip[label] = t;
}
await client.close();
printTable(
  "tools/call caveman_compress round trip over stdio (ms)",
  Object.entries(roundTrip).map(([input, t]) => ({
    input,
    n: t.n,
    p50: t.p50Ms,
    p99: t.p99Ms,
    mean: t.meanMs,
  })),
);

// 3. cold start: spawn to the first tools/list answer, on raw stdio
const BASELINE = process.env.CAVEMAN_BENCH_BASELINE_CLI;
async function coldStart(cli) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli], { env, stdio: ["pipe", "pipe", "ignore"] });
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "b", version: "1" } },
  };
  child.stdin.write(
    `${JSON.stringify(init)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`,
  );
  await new Promise((resolve) => {
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d.toString("utf8");
      if (buf.includes('"id":2')) resolve();
    });
  });
  const ms = performance.now() - t0;
  child.stdin.end();
  await new Promise((r) => child.on("exit", r));
  return ms;
}
const samples = [];
const baselineSamples = [];
// Interleaved, so both builds see the same machine load.
for (let i = 0; i < 10; i++) {
  samples.push(await coldStart(CLI));
  if (BASELINE) baselineSamples.push(await coldStart(BASELINE));
}
const cold = summarize(samples);
const coldBefore = BASELINE ? summarize(baselineSamples) : undefined;
printTable("cold start to first tools/list answer (ms)", [
  ...(coldBefore
    ? [
        {
          build: "baseline",
          n: coldBefore.n,
          p50: coldBefore.p50Ms,
          p99: coldBefore.p99Ms,
          mean: coldBefore.meanMs,
        },
      ]
    : []),
  { build: "this", n: cold.n, p50: cold.p50Ms, p99: cold.p99Ms, mean: cold.meanMs },
]);

// 4. hostile inputs: the engine's slowest known inputs, with the default engine budget.
const hostile = [];
for (const { name, input: make } of HOSTILE_INPUTS) {
  const input = make();
  for (const [build, cli] of [...(BASELINE ? [["baseline", BASELINE]] : []), ["this", CLI]]) {
    const row = await hostileRow({ cli, env: { ...env, CAVEMAN_MCP_EPHEMERAL: "1" }, input, capMs: 90_000 });
    hostile.push({ input: name, MB: sizeMb(input), build, ...row });
  }
}
printTable(
  "hostile inputs to caveman_compress (result ms, worst ping and longest event-loop delay in ms during it, peak RSS MB)",
  hostile.map((r) => ({
    input: r.input,
    MB: r.MB,
    build: r.build,
    result_ms: r.resultMs === null ? "-" : Math.round(r.resultMs),
    worst_ping_ms: Math.round(r.worstPingMs),
    loop_held_ms: Math.round(r.worstLoopMs),
    outcome: r.outcome,
    peak_rss_mb: r.peakRssMb ?? "-",
  })),
);

writeResults("mcp-server", {
  toolsListTokens: tokens,
  stdioRoundTripMs: Object.fromEntries(
    Object.entries(roundTrip).map(([k, t]) => [k, { n: t.n, p50: t.p50Ms, p99: t.p99Ms }]),
  ),
  coldStartMs: { n: cold.n, p50: cold.p50Ms, p99: cold.p99Ms },
  ...(coldBefore
    ? { coldStartBaselineMs: { n: coldBefore.n, p50: coldBefore.p50Ms, p99: coldBefore.p99Ms } }
    : {}),
  hostileInputs: hostile,
});
