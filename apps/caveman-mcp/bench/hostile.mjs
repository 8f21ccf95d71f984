// Hostile inputs over raw stdio: per input, the time to the caveman_compress result, the worst
// ping answer while it runs (a ping every 20 ms), the longest the server's own event loop was held
// (`eld-probe.mjs`, preloaded; on a busy machine it includes waiting for a core), what came back (compressed, or passed through
// and why) and the server's peak RSS (VmHWM, whole process, workers included; Linux only). Each
// row runs in a fresh server so the peak is that input's own. A baseline binary (another build,
// e.g. main's, given as CAVEMAN_BENCH_BASELINE_CLI) runs the same rows in the same run, so before
// and after are comparable; its rows are cut off at `capMs`.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

const MIB = 1024 * 1024;

function randomLetters(n, seed) {
  let x = seed;
  const out = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(String.fromCharCode(97 + (x % 26)));
  }
  return out.join("");
}

function jsFunctions(n) {
  return Array.from({ length: n }, (_, i) => `function f${i}(a, b) { return a * ${i} + b; }`).join("\n");
}

export const HOSTILE_INPUTS = [
  { name: "[ x 250,000", input: () => "[".repeat(250_000) },
  {
    name: "3 lines x 80,000 random letters",
    input: () => [1, 2, 3].map((s) => randomLetters(80_000, s)).join("\n"),
  },
  { name: "80,000 one-line JS functions", input: () => jsFunctions(80_000) },
  { name: "40,000 one-line JS functions", input: () => jsFunctions(40_000) },
  // Not slow for the engine: the largest ordinary input under the 16 MiB cap, to show what stays
  // on the main thread (parsing the request, hashing, storing, writing the answer).
  { name: "240,000 log lines (near the cap)", input: () => logLines(240_000) },
];

function logLines(n) {
  return Array.from(
    { length: n },
    (_, i) =>
      `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO worker ${i % 9} handled request ${i} in ${i % 500} ms`,
  ).join("\n");
}

function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** One input in a fresh server: time to result, worst ping, outcome, peak RSS. */
export async function hostileRow({ cli, env, args = [], input, capMs }) {
  const probe = new URL("./eld-probe.mjs", import.meta.url).href;
  const child = spawn(process.execPath, ["--import", probe, cli, ...args], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  // The server's own longest event-loop delay while the compress runs (from the preloaded probe).
  let measuring = false;
  let worstLoopMs = 0;
  let errBuf = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    errBuf += chunk;
    for (let nl = errBuf.indexOf("\n"); nl >= 0; nl = errBuf.indexOf("\n")) {
      const m = /^caveman-bench-eld ([\d.]+)$/.exec(errBuf.slice(0, nl));
      errBuf = errBuf.slice(nl + 1);
      if (m && measuring) worstLoopMs = Math.max(worstLoopMs, Number(m[1]));
    }
  });
  const waiting = new Map(); // id -> { sent, resolve }
  let buf = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buf += chunk;
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      // Only the compress answer is large; small lines are parsed, the large one is matched.
      const id = line.length < 4096 ? JSON.parse(line).id : 10;
      const w = waiting.get(id);
      if (w) {
        waiting.delete(id);
        w.resolve({ at: performance.now(), line });
      }
    }
  });
  const request = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, { resolve });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  await request(2, "ping", {});

  const t0 = performance.now();
  measuring = true;
  let done;
  const call = request(10, "tools/call", { name: "caveman_compress", arguments: { input } }).then((r) => {
    done = r;
  });
  let worstPingMs = 0;
  let pings = 0;
  let pingId = 100;
  const cap = new Promise((r) => setTimeout(r, capMs));
  let capped = false;
  void cap.then(() => {
    capped = true;
  });
  while (!done && !capped) {
    const sent = performance.now();
    const answer = await Promise.race([request(pingId++, "ping", {}), cap]);
    // Every ping counts, also one answered only after the result (the engine held the loop).
    worstPingMs = Math.max(worstPingMs, (answer ? answer.at : performance.now()) - sent);
    if (answer) pings++;
    await new Promise((r) => setTimeout(r, 20));
  }
  if (!done) await Promise.race([call, cap]);
  // One more probe interval, so the delay around the answer itself is counted.
  await new Promise((r) => setTimeout(r, 150));
  measuring = false;
  const resultMs = done ? done.at - t0 : null;
  const rssMb = peakRssMb(child.pid);
  let outcome = "no answer";
  if (done) {
    const m = /not compressed \(([a-z_]+)\)/.exec(done.line);
    outcome = m ? `passed (${m[1]})` : /recovery_handle \\?"ccr_/.test(done.line) ? "compressed" : "other";
  } else {
    outcome = `still running at ${Math.round(capMs / 1000)} s`;
    // A loop held the whole time never let the probe report: the cap is the lower bound.
    worstLoopMs = Math.max(worstLoopMs, capMs);
  }
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  return {
    resultMs,
    worstPingMs: Math.round(worstPingMs * 10) / 10,
    worstLoopMs,
    pings,
    outcome,
    peakRssMb: rssMb,
  };
}

export function sizeMb(s) {
  return Math.round((Buffer.byteLength(s, "utf8") / MIB) * 100) / 100;
}
