// Launcher start overhead: time from spawn to the first `tools/list` answer, through the
// launcher (`node dist/cli.js`, resolving this host's platform package) and with the
// server alone (`node <platform>/dist/cli.mjs`), plus the bare launcher cost against a
// do-nothing fixture. Needs `pnpm --filter caveman-mcp build` (turbo's bench depends on it).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, summarize, writeResults } from "@caveman/bench";
import {
  BINDING_ENV,
  bindingFile,
  gatherHost,
  SERVER_FILE,
  targetsForHost,
} from "../.cache/repo-lib/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const launcher = resolve(here, "..", "dist", "cli.js");
const fixture = resolve(here, "..", "test", "fixtures", "server.mjs");
const host = gatherHost();
const [target] = targetsForHost(host.platform, host.arch, host.libc);
const platformDir = resolve(here, "..", "..", "platforms", target.id);
const server = join(platformDir, SERVER_FILE);
const binding = join(platformDir, bindingFile(host.abi));
if (!existsSync(server)) throw new Error(`${server} is missing: run pnpm --filter caveman-mcp build`);

const work = mkdtempSync(join(tmpdir(), "cm-bench-"));
const serverArgs = ["--db", join(work, "ccr.db"), "--chip-dir", join(work, "chips"), "--root", work];
const baseEnv = { ...process.env, HOME: work };
delete baseEnv.CAVEMAN_MCP_BINARY;

/** Spawn, speak initialize + tools/list as raw JSON-RPC lines; resolves (after a clean exit) to the answer's time. */
function firstToolsList(command, args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "ignore"] });
    let buffered = "";
    const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
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
          const answeredAt = performance.now();
          child.once("exit", () => resolvePromise(answeredAt));
          child.stdin.end();
        }
        nl = buffered.indexOf("\n");
      }
    });
    const clientInfo = { name: "bench", version: "1" };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
    });
  });
}

/**
 * Time A and B alternately (ABAB...), so that load from other processes on this shared
 * machine hits both sides alike; the figures are compared as a ratio inside one run.
 */
async function interleaved(a, b, runs) {
  await a();
  await b();
  const as = [];
  const bs = [];
  for (let i = 0; i < runs; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [summarize(as), summarize(bs)];
}

const elapsed = async (fn) => {
  const t0 = performance.now();
  const end = await fn();
  return (typeof end === "number" ? end : performance.now()) - t0;
};

function runToExit(command, args, env) {
  return new Promise((res, rej) => {
    const child = spawn(command, args, { env, stdio: "ignore" });
    child.once("error", rej);
    child.once("exit", () => res(undefined));
  });
}

const serverEnv = { ...baseEnv, [BINDING_ENV]: binding };
const [alone, via] = await interleaved(
  () => elapsed(() => firstToolsList(process.execPath, [server, ...serverArgs], serverEnv)),
  () => elapsed(() => firstToolsList(process.execPath, [launcher, ...serverArgs], baseEnv)),
  15,
);
const [bareNode, bareLauncher] = await interleaved(
  () => elapsed(() => runToExit(process.execPath, [fixture, "--exit", "0"], baseEnv)),
  () =>
    elapsed(() =>
      runToExit(process.execPath, [launcher, "--exit", "0"], { ...baseEnv, CAVEMAN_MCP_BINARY: fixture }),
    ),
  20,
);

const rows = [
  { path: "server alone -> first tools/list", n: alone.n, p50Ms: alone.p50Ms, meanMs: alone.meanMs },
  { path: "launcher + server -> first tools/list", n: via.n, p50Ms: via.p50Ms, meanMs: via.meanMs },
  { path: "fixture alone, start to exit", n: bareNode.n, p50Ms: bareNode.p50Ms, meanMs: bareNode.meanMs },
  {
    path: "launcher + fixture, start to exit",
    n: bareLauncher.n,
    p50Ms: bareLauncher.p50Ms,
    meanMs: bareLauncher.meanMs,
  },
];
printTable(`launcher start overhead (${target.id}, Node ${process.version})`, rows);
const overheadMs = via.p50Ms - alone.p50Ms;
const bareOverheadMs = bareLauncher.p50Ms - bareNode.p50Ms;
process.stdout.write(
  `\noverhead to first tools/list: ${overheadMs.toFixed(1)} ms (p50), ${(via.p50Ms / alone.p50Ms).toFixed(2)}x; bare launcher: ${bareOverheadMs.toFixed(1)} ms\n`,
);
writeResults("launcher", {
  target: target.id,
  node: process.version,
  serverAloneToToolsListP50Ms: alone.p50Ms,
  launcherToToolsListP50Ms: via.p50Ms,
  overheadP50Ms: overheadMs,
  ratio: via.p50Ms / alone.p50Ms,
  bareLauncherOverheadP50Ms: bareOverheadMs,
});
