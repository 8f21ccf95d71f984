// Test helpers for the stdio server: an in-memory client (a stdin to write to, and the answers
// read back line by line), three tools (echo, one that throws, one that waits until released), a
// chip sink that keeps what it was asked to save, and start/stop around the one server a test runs.
import { PassThrough } from "node:stream";
import { z } from "zod";
import { defineTool, type ToolSpec } from "./registry.js";
import { type ServerHandle, startServer } from "./server.js";

export type Msg = Record<string, unknown> & {
  id?: unknown;
  error?: { code: number; message: string };
  result?: Record<string, unknown>;
};

function harness() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const raw: string[] = [];
  const lines: unknown[] = [];
  let buffered = "";
  const waiters: Array<() => void> = [];
  stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let nl = buffered.indexOf("\n");
    while (nl !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      raw.push(line);
      lines.push(JSON.parse(line));
      nl = buffered.indexOf("\n");
    }
    for (const w of waiters.splice(0)) w();
  });
  const next = async (count = 1): Promise<unknown[]> => {
    const target = lines.length + count;
    while (lines.length < target) await new Promise<void>((r) => waiters.push(r));
    return lines.slice(target - count, target);
  };
  const one = async (): Promise<Msg> => (await next(1))[0] as Msg;
  return { stdin, stdout, raw, lines, next, one, write: (s: string | Buffer) => stdin.write(s) };
}

export let release: (() => void) | undefined;
export const tools: ToolSpec[] = [
  defineTool({
    name: "echo",
    family: "compress",
    description: "Echo text.",
    input: z.strictObject({ text: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: ({ text }) => ({ text }),
  }),
  defineTool({
    name: "boom",
    family: "compress",
    description: "Throw.",
    input: z.strictObject({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: () => {
      throw new TypeError("kaboom");
    },
  }),
  defineTool({
    name: "slow",
    family: "compress",
    description: "Wait until released.",
    input: z.strictObject({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: () => new Promise((resolve) => (release = () => resolve({ text: "done" }))),
  }),
];

export const saved: Array<{ tool: string; args: unknown }> = [];
const sink = {
  saveFailure(input: { tool: string; args: unknown; errMsg: string }) {
    if (JSON.stringify(input.args ?? null).length <= 50) return { chip: null };
    saved.push({ tool: input.tool, args: input.args });
    return { chip: { id: `c${saved.length}` } };
  },
};

/** The server the running test started, until stop() closes it. */
export let handle: ServerHandle | undefined;

/** Closes the server a test started; each test file runs it after every test. */
export async function stop(): Promise<void> {
  await handle?.close();
  handle = undefined;
}

/** Starts a server on streams the test made itself; stop() closes it like one from start(). */
export async function serve(opts: Parameters<typeof startServer>[0]): Promise<ServerHandle> {
  handle = await startServer(opts);
  return handle;
}

/** Starts a server with the three tools and the chip sink, on a fresh in-memory client. */
export async function start(opts: { maxInboundBytes?: number; shutdownGraceMs?: number } = {}) {
  const h = harness();
  await serve({
    stdin: h.stdin,
    stdout: h.stdout,
    tools,
    version: "0.0.0-test",
    chips: sink,
    ...opts,
  });
  return h;
}

export const call = (id: unknown, name: string, args: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })}\n`;
