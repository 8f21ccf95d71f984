// The team store through the real binary: server processes with separate local SQLite stores
// resolving each other's handles through a real redis-server, and what they do when that server
// is killed and restarted, drops their connection, stalls, or is not there at start; `doctor` and
// the configuration checks around `--ccr-url`.
import { spawn } from "node:child_process";
import { startRedis, type TestRedis } from "@caveman/test-redis";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { allText, CLI, connect, type Sandbox, sandbox, text } from "./helpers.js";

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

type Closer = { close(): Promise<void> };
const open: Closer[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  // A test that failed between kill and restart must not take the next ones down with it.
  if (redis.pid === undefined) await redis.restart();
});

let namespaces = 0;
const namespace = () => `app${process.pid}-${++namespaces}`;

/** A server process with its own home (so its own local SQLite store) on the given team URL. */
async function server(
  url: string,
  extra: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string; box: Sandbox }> {
  const box = sandbox();
  Object.assign(box.env, { CAVEMAN_CCR_URL: url }, extra);
  const { client, transport } = await connect(box);
  let err = "";
  transport.stderr?.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  open.push(client);
  return { client, stderr: () => err, box };
}

/** Distinct compressible JSON per call, so each test stores fresh originals. */
let inputs = 0;
function bigJson(): string {
  inputs += 1;
  return JSON.stringify(
    Array.from({ length: 300 }, (_, i) => ({ run: inputs, id: i, user: `user${i % 13}`, ok: i % 9 !== 0 })),
    null,
    2,
  );
}

/** Compress and return the recovery handle, which the result's note names. */
async function compress(client: Client, input: string): Promise<string> {
  const r = (await client.callTool({ name: "caveman_compress", arguments: { input } })) as CallToolResult;
  const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(allText(r))?.[1];
  expect(handle, allText(r).slice(-300)).toMatch(/^ccr_/);
  return handle!;
}

async function retrieve(client: Client, handle: string): Promise<CallToolResult> {
  return (await client.callTool({
    name: "caveman_retrieve",
    arguments: { recovery_handle: handle },
  })) as CallToolResult;
}

/** Retrieve until it stops failing (the team store coming back); the first success is returned. */
async function retrieveOnceBack(client: Client, handle: string): Promise<CallToolResult> {
  let result: CallToolResult | undefined;
  await waitFor(async () => {
    result = await retrieve(client, handle);
    return !result.isError;
  });
  return result!;
}

/** Polls `check` until true; the cap only turns a hang into a failure, so it is far past any load. */
async function waitFor(check: () => Promise<boolean> | boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Run the binary once (doctor, etc.) and collect its output. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("team store across server processes", () => {
  it("resolves a handle compressed by another process with its own local store, byte-exact", async () => {
    const url = `${redis.url}?namespace=${namespace()}`;
    const a = await server(url);
    const b = await server(url);
    const input = bigJson();
    const handle = await compress(a.client, input);
    const back = await retrieve(b.client, handle);
    expect(back.isError).toBeFalsy();
    expect(text(back)).toBe(input);
    const stats = (await b.client.callTool({ name: "caveman_stats", arguments: {} })) as CallToolResult;
    const store = (stats.structuredContent as { store: Record<string, unknown> }).store;
    expect(store).toMatchObject({ backend: "sqlite", entries: 1, team: { state: "ready", url } });
    // The other way round too, and a namespace apart sees nothing.
    const second = bigJson();
    expect(text(await retrieve(a.client, await compress(b.client, second)))).toBe(second);
    const stranger = await server(`${redis.url}?namespace=${namespace()}`);
    const miss = await retrieve(stranger.client, handle);
    expect(miss.isError).toBe(true);
    expect(text(miss)).toMatch(/^cave_unknown_handle:/);
  });

  it("rides out the Redis server killed with SIGKILL and restarted mid-stream", async () => {
    const url = `${redis.url}?namespace=${namespace()}`;
    const a = await server(url);
    const b = await server(url);
    const before = bigJson();
    const h1 = await compress(a.client, before);
    expect(text(await retrieve(b.client, h1))).toBe(before);

    await redis.kill("SIGKILL");
    // Compress still stores locally; the owner still retrieves; the other process fails closed.
    const during = bigJson();
    const h2 = await compress(a.client, during);
    expect(text(await retrieve(a.client, h2))).toBe(during);
    const failed = await retrieve(b.client, h2);
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/^cave_store_unavailable: .*retry/);
    // What b already fetched is cached in its own local store: the CLI reads it there, offline.
    const { CAVEMAN_CCR_URL: _, ...offline } = b.box.env;
    const cached = await runCli(["retrieve", h1], offline);
    expect(cached.stdout).toBe(before);
    await waitFor(() => /connection lost/.test(a.stderr()));

    await redis.restart();
    // a writes its backlog through once the link is back; then b can resolve what a made meanwhile.
    expect(text(await retrieveOnceBack(b.client, h2))).toBe(during);
    expect(a.stderr()).toMatch(/reachable again/);
  });

  it("reconnects after CLIENT KILL and answers through a stalled server (CLIENT PAUSE)", async () => {
    const url = `${redis.url}?namespace=${namespace()}`;
    const a = await server(url);
    const b = await server(url);
    const input = bigJson();
    const handle = await compress(a.client, input);
    await redis.cli(["CLIENT", "KILL", "TYPE", "normal"]);
    // The link comes back on its own; on a loaded machine the first retrieve may land while it is
    // still reconnecting (answered cave_store_unavailable), so wait for it to be back.
    expect(text(await retrieveOnceBack(b.client, handle))).toBe(input);

    const other = bigJson();
    const h2 = await compress(a.client, other);
    // CLIENT PAUSE answers once the stall is in force, so the retrieve surely meets it. After the
    // stall the server answers with the original: cave_store_unavailable means the retrieve was
    // answered while it lasted, bounded by the command timeout and not by the stall.
    await redis.cli(["CLIENT", "PAUSE", "6000", "ALL"]);
    const stalled = await retrieve(b.client, h2);
    expect(text(stalled)).toMatch(/^cave_store_unavailable:/);
    expect(text(await retrieveOnceBack(b.client, h2))).toBe(other);
  });

  it("says a handle expired, distinct from unknown, once its idle window ran out", async () => {
    const url = `${redis.url}?namespace=${namespace()}&idle=1s`;
    const a = await server(url);
    const b = await server(url);
    const handle = await compress(a.client, bigJson());
    await new Promise((r) => setTimeout(r, 1300));
    const r = await retrieve(b.client, handle);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^cave_handle_expired: /);
  });
});

describe("team store faults at start and configuration", () => {
  it("starts with the team store down: a loud stderr line, compress works, doctor fails", async () => {
    const dead = "redis://127.0.0.1:1?namespace=nobody";
    const a = await server(dead);
    await waitFor(() =>
      /warning: team store redis:\/\/127\.0\.0\.1:1\?namespace=nobody is unreachable/.test(a.stderr()),
    );
    expect(a.stderr()).toMatch(/caveman-mcp doctor/);
    const input = bigJson();
    const handle = await compress(a.client, input);
    expect(text(await retrieve(a.client, handle))).toBe(input);
    const elsewhere = await retrieve(a.client, "ccr_0123456789abcdef0123456789abcdef");
    expect(text(elsewhere)).toMatch(/^cave_store_unavailable:/);

    const doctor = await runCli(["doctor"], a.box.env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^FAIL team store: redis:\/\/127\.0\.0\.1:1\?namespace=nobody .*ECONNREFUSED/m,
    );
  });

  it("doctor passes against a live server and never prints the password", async () => {
    const box = sandbox();
    const secret = "hunter2-team";
    const locked = await startRedis({ args: ["--requirepass", secret] });
    try {
      const env = {
        ...box.env,
        CAVEMAN_CCR_URL: `${locked.url}?namespace=docs`,
        CAVEMAN_CCR_PASSWORD: secret,
      };
      const ok = await runCli(["doctor"], env);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(
        /^ok {3}team store: redis:\/\/127\.0\.0\.1:\d+\/?\?namespace=docs \(namespace docs\): Redis 7/m,
      );
      const inUrl = await runCli(["doctor", "--json"], {
        ...box.env,
        CAVEMAN_CCR_URL: `redis://:${secret}@127.0.0.1:${locked.port}`,
      });
      expect(inUrl.code).toBe(0);
      expect(JSON.parse(inUrl.stdout).config.team).toMatchObject({
        url: `redis://:***@127.0.0.1:${locked.port}`,
        password: "***",
      });
      const wrong = await runCli(["doctor"], { ...env, CAVEMAN_CCR_PASSWORD: "nope" });
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toMatch(/FAIL team store: .*authentication failed/);
      for (const out of [ok, inUrl, wrong]) expect(out.stdout + out.stderr).not.toContain(secret);
    } finally {
      await locked.stop();
    }
  });

  it("refuses bad team settings before starting (exit 2) and TLS to a plain server in doctor", async () => {
    const box = sandbox();
    for (const [args, message] of [
      [["--ccr-url", "http://x"], /redis:\/\/ or rediss:\/\//],
      [["--ccr-url", "redis://:pw@h?nope=1"], /unknown team store setting "nope"/],
      [["--ccr-namespace", "ns"], /needs a team store URL/],
      [["--ccr-url", "redis://h", "--ccr-namespace", "a b"], /namespace/],
    ] as Array<[string[], RegExp]>) {
      const r = await runCli(["doctor", ...args], box.env);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain(":pw@");
    }
    const tls = await runCli(["doctor", "--ccr-url", redis.url.replace("redis://", "rediss://")], box.env);
    expect(tls.code).toBe(1);
    expect(tls.stdout).toMatch(/FAIL team store: rediss:.*TLS handshake failed.*use redis:\/\//);
  });
});
