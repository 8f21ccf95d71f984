// Finding 6 on the real binary: with a team store configured, every path that stores an original
// — the hook, the proxy, the CLI and the server's tool — reaches it, so two machines (two HOMEs,
// each with its own SQLite store, one redis-server) resolve each other's handles. A hook never
// connects: it queues in its store's outbox and a sender (a running server, or the `flush` it
// starts in the background) delivers.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startRedis, type TestRedis } from "@caveman/test-redis";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, connect, type Sandbox, sandbox } from "./helpers.js";
import { claudeBash, logText } from "./hookSamples.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/wrapped-server.mjs", import.meta.url));
const { logText: proxyLog } = (await import(FIXTURE)) as { logText: () => string };

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const HANDLE = /(ccr_[0-9a-f]{32})/;

/** A machine: its own HOME and SQLite store, the shared team store, roomy hook budgets. */
function machine(namespace: string): Sandbox {
  const box = sandbox();
  Object.assign(box.env, { CAVEMAN_CCR_URL: `${redis.url}?namespace=${namespace}` });
  mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
  writeFileSync(
    join(box.env.HOME!, ".caveman", "hooks.json"),
    JSON.stringify({ budget_ms: 60_000, stdin_timeout_ms: 30_000 }),
  );
  return box;
}

function run(box: Sandbox, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: box.env,
    cwd: box.root,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    ...(input !== undefined ? { input } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `retrieve` on a machine, retried while a sender elsewhere is still delivering. */
async function retrieveEventually(box: Sandbox, handle: string): Promise<string> {
  let last = run(box, ["retrieve", handle]);
  for (let tries = 0; tries < 60 && last.code !== 0; tries++) {
    await new Promise((r) => setTimeout(r, 500));
    last = run(box, ["retrieve", handle]);
  }
  expect(last.code, last.stderr).toBe(0);
  return last.stdout;
}

async function proxyHandle(box: Sandbox): Promise<string> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "proxy", "--", process.execPath, FIXTURE],
    env: box.env,
    cwd: box.root,
    stderr: "pipe",
  });
  const client = new Client({ name: "team-paths", version: "1.0.0" });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name: "big_log", arguments: {} })) as CallToolResult;
    const first = r.content[0];
    return HANDLE.exec(first?.type === "text" ? first.text : "")![1]!;
  } finally {
    await client.close();
  }
}

async function toolHandle(box: Sandbox, input: string): Promise<string> {
  const { client } = await connect(box);
  try {
    const r = (await client.callTool({ name: "caveman_compress", arguments: { input } })) as CallToolResult;
    return HANDLE.exec(r.content.map((b) => (b.type === "text" ? b.text : "")).join("\n"))![1]!;
  } finally {
    await client.close();
  }
}

describe("one write path: every original reaches the team store", () => {
  it("two machines resolve each other's hook, proxy, CLI and tool handles", async () => {
    const ns = `paths${process.pid}`;
    const a = machine(ns);
    const b = machine(ns);
    // Machine A: a hook call (no server running: the hook starts a background sender).
    const log = logText(6000);
    const hook = run(a, ["hook", "claude-code"], claudeBash("cat /var/log/app.log", log));
    expect(hook.code).toBe(0);
    const hookHandle = HANDLE.exec(hook.stdout)![1]!;
    // Machine A: the proxy around a real MCP server, then the CLI.
    const proxied = await proxyHandle(a);
    const json = JSON.stringify(
      Array.from({ length: 400 }, (_, i) => ({ id: i, user: `u${i % 7}`, ok: true })),
    );
    const cli = run(a, ["compress", "--hint", "json"], json);
    expect(cli.code, cli.stderr).toBe(0);
    const cliHandle = HANDLE.exec(cli.stderr)![1]!;
    // Machine B: the server's own tool.
    const toolText = `${logText(4000).replace(/INFO/g, "WARN")}`;
    const tool = await toolHandle(b, toolText);

    // Each machine reads the other's originals byte-exact, through its own local store's miss.
    expect(await retrieveEventually(b, hookHandle)).toBe(log);
    expect(await retrieveEventually(b, proxied)).toBe(proxyLog());
    expect(await retrieveEventually(b, cliHandle)).toBe(json);
    expect(await retrieveEventually(a, tool)).toBe(toolText);
    const keys = (await redis.cli(["--scan", "--pattern", `caveman:ccr:v2:${ns}:*`]))
      .split("\n")
      .filter(Boolean);
    expect(keys.length).toBeGreaterThanOrEqual(8);
  }, 300_000);
});
