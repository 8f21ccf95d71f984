// Inputs that were slow for the engine (65 s, 24.5 s, 14.4 s before its linear-time fixes) must not
// wedge the server: while one is worked on (in an engine worker), pings, tools/list and edits are
// answered at once; the call ends within its deadline, compressed or passed through with
// `timeout`; and a cancel stops the worker.
//
// Nothing here is a stopwatch: on a busy machine any time bound fails for the wrong reason.
// "Answered at once" is order: requests sent after the heavy call are answered before it ends
// (an engine run on the event loop again would answer them only after it, every time). "Within
// its deadline" is the verdict: compressed, or passed through with the reason (`timeout` when the
// 1 s deadline, `--engine-timeout-ms 1000`, ran out). The deadline and its enforcement have their
// own tests in @caveman/mcp-server.
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, sandbox } from "./helpers.js";

const DEADLINE_MS = 1000;

function randomLetters(n: number, seed: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(String.fromCharCode(97 + (x % 26)));
  }
  return out.join("");
}

const HOSTILE: Array<{ name: string; input: string }> = [
  { name: "[ repeated 250,000 times", input: "[".repeat(250_000) },
  {
    name: "3 lines of 80,000 random letters",
    input: [1, 2, 3].map((seed) => randomLetters(80_000, seed)).join("\n"),
  },
  {
    name: "80,000 one-line JS functions",
    input: Array.from({ length: 80_000 }, (_, i) => `function f${i}(a, b) { return a * ${i} + b; }`).join(
      "\n",
    ),
  },
];

/** Seconds of engine work however fast the engine gets (it is linear at best), under the 16 MiB cap. */
const LONG = "[".repeat(15_000_000);

function textOf(r: unknown): string {
  return (r as CallToolResult).content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

async function engineStats(client: Client): Promise<Record<string, number>> {
  const r = (await client.callTool({ name: "caveman_stats", arguments: {} })) as CallToolResult;
  return (r.structuredContent as { engine: Record<string, number> }).engine;
}

/** Pings (plus a tools/list and an edit first) until `work` settles: each must be answered. */
async function callAlongside(client: Client, work: Promise<unknown>, root: string): Promise<void> {
  let settled = false;
  void work.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  // Let the request reach the server and its worker first.
  await new Promise((r) => setTimeout(r, 100));
  await client.listTools();
  await client.callTool({ name: "be-write", arguments: { path: join(root, "during.txt"), content: "x\n" } });
  while (!settled) {
    await client.ping();
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("hostile inputs: the server keeps answering and every call ends within its deadline", () => {
  const box = sandbox();
  let client: Client;

  beforeAll(async () => {
    ({ client } = await connect(box, ["--engine-timeout-ms", String(DEADLINE_MS)]));
    // First calls pay one-off costs on both sides (schema rendering, the client compiling output
    // validators, the edit journal's first files): paid here, so the rounds measure only what
    // engine work could cost them.
    await client.listTools();
    await client.callTool({
      name: "be-write",
      arguments: { path: join(box.root, "warm.txt"), content: "x\n" },
    });
  });
  afterAll(async () => {
    await client?.close();
  });

  for (const { name, input } of HOSTILE) {
    it(`${name}: the server keeps answering, the call ends with a verdict`, async () => {
      const call = client.callTool({ name: "caveman_compress", arguments: { input } });
      await callAlongside(client, call, box.root);
      const result = await call;
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const note = textOf(result);
      // Compressed (a handle), or passed through unchanged: because time ran out (`timeout`), or
      // because the engine, in time, found nothing to gain (`document`, `not_smaller`, ...).
      if (!note.includes('recovery_handle "ccr_')) {
        expect(note).toMatch(/\[caveman: not compressed \([a-z_]+\)/);
        expect((result as CallToolResult).content[0]).toEqual({ type: "text", text: input });
      }
    });
  }

  it("a cancel stops the worker: the next heavy call is not queued behind it", async () => {
    const before = await engineStats(client);
    const abort = new AbortController();
    const cancelled = client.callTool({ name: "caveman_compress", arguments: { input: LONG } }, undefined, {
      signal: abort.signal,
    });
    cancelled.catch(() => {});
    // Wait until the job is really running in a worker, then cancel (the client sends
    // notifications/cancelled). Those stats calls are answered while the long job holds the
    // worker: the server keeps answering during engine work (the engine is off the event loop).
    let busy = 0;
    for (let i = 0; i < 600 && busy === 0; i++) {
      busy = (await engineStats(client)).workers_busy ?? 0;
      if (busy === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(busy).toBeGreaterThan(0);
    abort.abort();
    await expect(cancelled).rejects.toThrow();
    let after = await engineStats(client);
    for (let i = 0; i < 40 && after.cancelled === before.cancelled; i++) {
      await new Promise((r) => setTimeout(r, 25));
      after = await engineStats(client);
    }
    expect(after.cancelled).toBe((before.cancelled ?? 0) + 1);
    expect(after.workers_stopped).toBeGreaterThan(before.workers_stopped ?? 0);
    expect(after.workers_busy).toBe(0);

    // The pool has one worker on a 2-core machine: the cancelled job let it go (no worker busy,
    // above), so the next heavy call is served.
    const next = await client.callTool({ name: "caveman_compress", arguments: { input: HOSTILE[1]!.input } });
    expect(next.isError ?? false).toBe(false);
  });
});
