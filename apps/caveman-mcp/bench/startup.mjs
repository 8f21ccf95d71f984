// What it costs to start: the hook (pass-through, off switch, our own tool, a 100 KB compress, 20
// at once; the compress again with a server running, which takes the hooks' jobs) and the server (spawn to the first `tools/list` answer, directly and through the npm
// launcher laid out as `npm install` would), each beside `node -e 0` timed in the same run, ABAB,
// so that load from other processes on this shared machine hits both sides alike. Runs under this
// Node and every Node line tooling/scripts/node-matrix.sh fetched into .cache/node-matrix; on Node
// 22+ the hook and the server are timed with and without the compile cache. Figures go to
// bench/results/startup.json.
//   node bench/startup.mjs [--runs N] [--from DIR]
// --from DIR times another build laid out as DIR/app-dist, DIR/launcher, DIR/platform (a copy
// of apps/caveman-mcp/dist, npm/caveman-mcp and npm/platforms/<host>): the BEFORE figures.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { printTable, writeResults } from "@caveman/bench";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..", "..");
const { values: opts } = parseArgs({
  options: { runs: { type: "string", default: "9" }, from: { type: "string" } },
});
const RUNS = Number(opts.runs);
const from = opts.from ? resolve(opts.from) : undefined;
const appDist = from ? join(from, "app-dist") : resolve(here, "..", "dist");
const launcherDir = from ? join(from, "launcher") : join(root, "npm", "caveman-mcp");
const platformDir = from ? join(from, "platform") : join(root, "npm", "platforms", hostTarget());
const CLI = join(appDist, "cli.js");
for (const f of [CLI, join(launcherDir, "dist", "cli.js"), join(platformDir, "dist", "cli.mjs")])
  if (!existsSync(f)) throw new Error(`${f} is missing: build first (pnpm --filter caveman-mcp... build)`);

function hostTarget() {
  const libc =
    process.platform === "linux"
      ? process.report.getReport().header.glibcVersionRuntime
        ? "gnu"
        : "musl"
      : "";
  return [process.platform, process.arch, libc].filter(Boolean).join("-");
}

/** The Node binaries to run under: this one, then each line node-matrix.sh fetched. */
function nodeLines() {
  const lines = [process.execPath];
  const cache = join(root, ".cache", "node-matrix");
  if (existsSync(cache))
    for (const d of readdirSync(cache).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))) {
      const bin = join(cache, d, "package", "bin", "node");
      if (/^node-\d/.test(d) && existsSync(bin)) lines.push(bin);
    }
  return lines;
}

const work = mkdtempSync(join(tmpdir(), "cm-startup-"));
// The launcher as `npm install caveman-mcp` lays it out: the platform package beside it.
const installed = join(work, "install", "node_modules");
cpSync(join(launcherDir, "package.json"), join(installed, "caveman-mcp", "package.json"));
cpSync(join(launcherDir, "dist"), join(installed, "caveman-mcp", "dist"), { recursive: true });
const platformName = hostTarget();
cpSync(join(platformDir, "package.json"), join(installed, "@caveman-mcp", platformName, "package.json"));
cpSync(join(platformDir, "dist"), join(installed, "@caveman-mcp", platformName, "dist"), { recursive: true });
const LAUNCHER = join(installed, "caveman-mcp", "dist", "cli.js");

function logText(bytes) {
  const out = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 997 === 500
        ? `2026-11-02T09:00:${String(i % 60).padStart(2, "0")}Z ERROR orders charge failed for order ${i}: card_declined`
        : `2026-11-02T09:00:${String(i % 60).padStart(2, "0")}Z INFO http GET /api/items/${i % 50} 200 ${(i * 37) % 400}ms`;
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join("\n")}\n`;
}
const bash = (command, stdout) =>
  JSON.stringify({
    session_id: "bench-1",
    transcript_path: "/tmp/none.jsonl",
    cwd: "/tmp",
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "run" },
    tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
    tool_use_id: "toolu_01",
  });
const EVENTS = {
  small: bash("ls -la", `${"drwxr-xr-x 2 user user 4096 Dec  2 04:53 src\n".repeat(6)}`.slice(0, 300)),
  ownTool: JSON.stringify({
    session_id: "bench-1",
    hook_event_name: "PostToolUse",
    tool_name: "mcp__caveman__caveman_retrieve",
    tool_input: { handle: "ccr_x" },
    tool_response: [{ type: "text", text: logText(50_000) }],
  }),
  log100k: bash("cat app.log", logText(100_000)),
};

function env(node, extra = {}) {
  return {
    PATH: `${dirname(node)}:${process.env.PATH ?? ""}`,
    HOME: join(work, "home"),
    XDG_CACHE_HOME: join(work, "cache"),
    ...extra,
  };
}

/** ms from spawn to exit of one hook call, and its verdict (the stderr line) and stdout size. */
function hook(node, event, extra) {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(node, [CLI, "hook", "claude-code"], { env: env(node, extra) });
    let out = 0;
    let err = "";
    child.stdout.on("data", (c) => {
      out += c.length;
    });
    child.stderr.on("data", (c) => {
      err += c;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const ms = performance.now() - t0;
      const verdict =
        /hook claude-code: (.*)/.exec(err)?.[1] ?? `no verdict (exit ${code}) ${err.slice(0, 200)}`;
      resolvePromise({ ms, code, verdict, out });
    });
    child.stdin.end(event);
  });
}

function bare(node) {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(node, ["-e", "0"], { stdio: "ignore", env: env(node) });
    child.once("error", reject);
    child.once("exit", () => resolvePromise({ ms: performance.now() - t0 }));
  });
}

/** ms from spawn to the `tools/list` answer (initialize first, as a client does). */
function toolsList(node, args, extra) {
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(node, args, { env: env(node, extra), stdio: ["pipe", "pipe", "pipe"] });
    let buffered = "";
    let err = "";
    child.stderr.on("data", (c) => {
      err += c;
    });
    const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no tools/list in 30 s: ${err.slice(0, 500)}`));
    }, 30_000);
    child.once("error", reject);
    child.stdout.on("data", (chunk) => {
      buffered += chunk.toString("utf8");
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        const msg = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (msg.id === 1) {
          send({ jsonrpc: "2.0", method: "notifications/initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
        } else if (msg.id === 2) {
          const ms = performance.now() - t0;
          clearTimeout(timer);
          child.once("exit", () =>
            resolvePromise({ ms, verdict: `${msg.result?.tools?.length ?? 0} tools` }),
          );
          child.stdin.end();
        }
        nl = buffered.indexOf("\n");
      }
    });
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    });
  });
}

const pick = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: pick(s, 0.5), p95: pick(s, 0.95) };
};

/** One scenario against the floor, interleaved; warm-up runs first (the compile cache fills). */
async function row(label, node, fn) {
  await bare(node);
  await fn();
  await fn();
  const floor = [];
  const runs = [];
  const verdicts = new Map();
  for (let i = 0; i < RUNS; i++) {
    floor.push((await bare(node)).ms);
    const r = await fn();
    runs.push(r.ms);
    verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + 1);
  }
  const f = stats(floor);
  const t = stats(runs);
  return {
    scenario: label,
    p50_ms: Math.round(t.p50),
    p95_ms: Math.round(t.p95),
    floor_p50_ms: Math.round(f.p50),
    x_floor: Number((t.p50 / f.p50).toFixed(2)),
    outcome: [...verdicts].map(([v, n]) => (verdicts.size > 1 ? `${n}x ${v}` : v)).join("; "),
  };
}

/** 20 hooks started at once: the slowest, how many finished within the budget, what they said. */
async function concurrent(label, node, event, n = 20, budgetMs = 3000) {
  const floor = (await bare(node)).ms;
  const all = await Promise.all(Array.from({ length: n }, () => hook(node, event)));
  const ms = all.map((r) => r.ms).sort((a, b) => a - b);
  const verdicts = new Map();
  for (const r of all) verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + 1);
  return {
    scenario: label,
    p50_ms: Math.round(pick(ms, 0.5)),
    p95_ms: Math.round(ms.at(-1)),
    floor_p50_ms: Math.round(floor),
    x_floor: Number((pick(ms, 0.5) / floor).toFixed(2)),
    outcome: `${all.filter((r) => r.ms <= budgetMs && r.code === 0).length}/${n} within ${budgetMs} ms, exit 0; ${[...verdicts].map(([v, c]) => `${c}x ${v}`).join("; ")}`,
  };
}

/**
 * A server of this build in the bench's HOME, up once its hook socket answers (a build without a
 * hook service, `--from` an older one, is given 5 s and then the hooks run on their own).
 */
async function withServer(node, fn) {
  const child = spawn(node, [CLI, "--tools", "retrieve"], {
    env: env(node),
    stdio: ["pipe", "ignore", "ignore"],
  });
  const run = join(work, "home", ".caveman", "run");
  const answers = (path) =>
    new Promise((r) => {
      const s = connect(path);
      s.once("connect", () => {
        s.destroy();
        r(true);
      });
      s.once("error", () => r(false));
    });
  try {
    for (let waited = 0; waited < 5000; waited += 50) {
      const name = existsSync(run) ? readdirSync(run).find((f) => f.endsWith(".sock")) : undefined;
      if (name && (await answers(join(run, name)))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return await fn();
  } finally {
    child.kill("SIGKILL");
  }
}

const serverArgs = (entry) => [entry, "--ephemeral", "--root", work, "--chip-dir", join(work, "chips")];
const results = {};
try {
  for (const node of nodeLines()) {
    const version = await new Promise((r) => {
      const c = spawn(node, ["-p", "process.versions.node"]);
      let s = "";
      c.stdout.on("data", (d) => {
        s += d;
      });
      c.once("exit", () => r(s.trim()));
    });
    const major = Number(version.split(".")[0]);
    const cacheModes = major >= 22 ? [{}, { NODE_DISABLE_COMPILE_CACHE: "1" }] : [{}];
    const rows = [];
    for (const mode of cacheModes) {
      const tag = mode.NODE_DISABLE_COMPILE_CACHE ? " (no compile cache)" : "";
      rows.push(await row(`hook pass-through 300 B${tag}`, node, () => hook(node, EVENTS.small, mode)));
      rows.push(
        await row(`hook CAVEMAN_HOOK=off${tag}`, node, () =>
          hook(node, EVENTS.log100k, { ...mode, CAVEMAN_HOOK: "off" }),
        ),
      );
      rows.push(await row(`hook own tool (retrieve)${tag}`, node, () => hook(node, EVENTS.ownTool, mode)));
      rows.push(await row(`hook compress 100 KB log${tag}`, node, () => hook(node, EVENTS.log100k, mode)));
      rows.push(
        await row(`server start to tools/list${tag}`, node, () => toolsList(node, serverArgs(CLI), mode)),
      );
      rows.push(
        await row(`launcher start to tools/list${tag}`, node, () =>
          toolsList(node, [LAUNCHER, "--ephemeral", "--root", work, "--chip-dir", join(work, "chips")], mode),
        ),
      );
    }
    rows.push(await concurrent("20 concurrent hooks, 100 KB compress", node, EVENTS.log100k));
    rows.push(await concurrent("20 concurrent hooks, pass-through", node, EVENTS.small));
    // The warm path: a running server of this build takes the hooks' jobs (hookService.ts).
    await withServer(node, async () => {
      rows.push(
        await row("hook compress 100 KB log, server running", node, () => hook(node, EVENTS.log100k)),
      );
      rows.push(
        await concurrent("20 concurrent hooks, 100 KB compress, server running", node, EVENTS.log100k),
      );
    });
    printTable(`startup, Node ${version}${from ? ` (${from})` : ""}, ${RUNS} runs each`, rows);
    results[`node-${version}`] = rows;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
writeResults(from ? "startup-before" : "startup", results);
