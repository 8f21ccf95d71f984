import { PassThrough, Writable } from "node:stream";
import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ToolSpec } from "./registry.js";
import { type ServerHandle, startServer } from "./server.js";

type Msg = Record<string, unknown> & {
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

let release: (() => void) | undefined;
const tools: ToolSpec[] = [
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

const saved: Array<{ tool: string; args: unknown }> = [];
const sink = {
  saveFailure(input: { tool: string; args: unknown; errMsg: string }) {
    if (JSON.stringify(input.args ?? null).length <= 50) return { chip: null };
    saved.push({ tool: input.tool, args: input.args });
    return { chip: { id: `c${saved.length}` } };
  },
};

let handle: ServerHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function start(opts: { maxInboundBytes?: number; shutdownGraceMs?: number } = {}) {
  const h = harness();
  handle = await startServer({
    stdin: h.stdin,
    stdout: h.stdout,
    tools,
    version: "0.0.0-test",
    chips: sink,
    ...opts,
  });
  return h;
}

const call = (id: unknown, name: string, args: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })}\n`;

describe("hardened stdio server", () => {
  it("answers a malformed line with -32700 and no id, then keeps serving", async () => {
    const h = await start();
    h.write('{"jsonrpc":"2.0","id":1,"method":\n');
    h.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    const [bad, ok] = (await h.next(2)) as Msg[];
    expect(bad).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(ok).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("answers a batch with one array and ignores its notifications", async () => {
    const h = await start();
    h.write(
      `${JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { foo: 1 },
      ])}\n`,
    );
    const [arr] = (await h.next(1)) as Msg[][];
    expect(Array.isArray(arr)).toBe(true);
    expect(arr).toHaveLength(3);
    expect(arr!.filter((m) => m.id === 1 && m.result)).toHaveLength(2);
    expect(arr!.find((m) => m.error)?.error?.code).toBe(-32600);
  });

  it("answers an empty batch -32600 and a notification-only batch not at all", async () => {
    const h = await start();
    h.write("[]\n");
    h.write('[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n');
    h.write('{"jsonrpc":"2.0","id":"p","method":"ping"}\n');
    const [empty, ping] = (await h.next(2)) as Msg[];
    expect(empty).toMatchObject({ id: null, error: { code: -32600 } });
    expect(ping).toMatchObject({ id: "p", result: {} });
  });

  it("tolerates unknown top-level keys", async () => {
    const h = await start();
    h.write('{"jsonrpc":"2.0","id":5,"method":"ping","x-trace":"abc"}\n');
    expect(await h.one()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
  });

  it("answers valid JSON that is not a message with -32600 and its id", async () => {
    const h = await start();
    h.write('{"jsonrpc":"2.0","id":8,"method":["ping"]}\n');
    expect(await h.one()).toMatchObject({ id: 8, error: { code: -32600 } });
  });

  it("discards an oversized line and answers cave_payload_too_large with the sniffed id", async () => {
    const h = await start({ maxInboundBytes: 1024 });
    h.write(call(77, "echo", { text: "x".repeat(5000) }));
    h.write('{"jsonrpc":"2.0","id":78,"method":"ping"}\n');
    const [big, ping] = (await h.next(2)) as Msg[];
    // -32600 (InvalidRequest), not -32001, which the SDK reads as RequestTimeout; data.code says which.
    expect(big).toMatchObject({ id: 77, error: { code: -32600, data: { code: "cave_payload_too_large" } } });
    expect(big?.error?.message).toMatch(/^cave_payload_too_large/);
    expect(ping).toMatchObject({ id: 78, result: {} });
  });

  it("refuses invalid UTF-8 with -32700", async () => {
    const h = await start();
    h.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}\n'),
      ]),
    );
    expect(await h.one()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("negotiates any requested protocol version without error", async () => {
    const h = await start();
    const versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2099-01-01", 42];
    for (const [i, v] of versions.entries()) {
      h.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: i, method: "initialize", params: { protocolVersion: v } })}\n`,
      );
    }
    const replies = (await h.next(versions.length)) as Msg[];
    const got = replies.map((r) => (r.result as { protocolVersion: string }).protocolVersion);
    expect(got).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2025-11-25", "2025-11-25"]);
  });

  it("turns a throwing handler into cave_tool_panicked and stays alive", async () => {
    const h = await start();
    h.write(call(1, "boom", {}));
    const r = await h.one();
    expect(r.result).toMatchObject({ isError: true });
    expect(JSON.stringify(r.result)).toContain("cave_tool_panicked");
    h.write(call(2, "echo", { text: "still here" }));
    expect((await h.one()).result).toMatchObject({ content: [{ type: "text", text: "still here" }] });
  });

  it("names an unknown key and the accepted ones, and saves the long arguments as a chip", async () => {
    const h = await start();
    h.write(call(1, "echo", { text: "a".repeat(80), colour: "red" }));
    const text = ((await h.one()).result as { content: Array<{ text: string }> }).content[0]!.text;
    expect(text).toMatch(/^cave_invalid_arguments: echo: unknown key "colour"; accepted: text/);
    expect(text).toMatch(/\(saved as chip:\/\/c\d+\)$/);
    expect(saved.at(-1)).toEqual({ tool: "echo", args: { text: "a".repeat(80), colour: "red" } });
  });

  it("keeps a non-JSON tools/call line as a chip and names it in the -32700 error", async () => {
    const h = await start();
    h.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${"q".repeat(60)}\n`,
    );
    const r = await h.one();
    expect(r.error?.code).toBe(-32700);
    expect(r.error?.message).toMatch(/\(saved as chip:\/\/c\d+\)$/);
  });

  it("answers unknown tools and unknown methods as the wire contract says", async () => {
    const h = await start();
    h.write(call(1, "nope", {}));
    h.write('{"jsonrpc":"2.0","id":2,"method":"no/such"}\n');
    const replies = (await h.next(2)) as Msg[];
    const tool = replies.find((r) => r.id === 1)!;
    const method = replies.find((r) => r.id === 2)!;
    expect(JSON.stringify(tool.result)).toContain("cave_unknown_tool");
    expect(method.error?.code).toBe(-32601);
  });

  it("finishes in-flight work after EOF before closing", async () => {
    const h = await start();
    h.write(call(1, "slow", {}));
    await new Promise((r) => setTimeout(r, 20));
    h.stdin.end();
    await new Promise((r) => setTimeout(r, 20));
    release?.();
    expect((await h.one()).result).toMatchObject({ content: [{ text: "done" }] });
    expect(await handle!.closed).toBe("eof");
  });

  it("answers work that outlives the grace period with a shutdown error", async () => {
    const h = await start({ shutdownGraceMs: 50 });
    h.write(call(9, "slow", {}));
    await new Promise((r) => setTimeout(r, 20));
    h.stdin.end();
    expect(await h.one()).toMatchObject({ id: 9, error: { data: { code: "cave_shutting_down" } } });
    expect(await handle!.closed).toBe("eof");
    release?.();
  });

  it("never answers a request the client cancelled, and does not wait for it at shutdown", async () => {
    const h = await start({ shutdownGraceMs: 60_000 });
    // Request and cancellation in one chunk: the SDK aborts before the handler's answer is sent.
    h.write(
      `${call(4, "slow", {}).trim()}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } })}\n`,
    );
    h.write('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
    expect(await h.one()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
    expect(handle!.inFlight).toBe(0);
    release?.();
    h.stdin.end();
    // With a 60 s grace a leaked request would hold `closed` far past the test timeout.
    expect(await handle!.closed).toBe("eof");
    expect(h.lines).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
  });

  it("answers a tools/call without a name, or with non-object arguments, as a tool error with a chip", async () => {
    const h = await start();
    h.write('{"jsonrpc":"2.0","id":1,"method":"tools/call"}\n');
    h.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}}\n');
    const stringArgs = JSON.stringify({ text: "s".repeat(80) });
    h.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: stringArgs } })}\n`,
    );
    const replies = (await h.next(3)) as Msg[];
    const texts = replies.map((r) => {
      expect(r.error).toBeUndefined();
      expect(r.result).toMatchObject({ isError: true });
      return (r.result as { content: Array<{ text: string }> }).content[0]!.text;
    });
    expect(texts[0]).toMatch(/^cave_invalid_arguments: tools\/call needs params/);
    expect(texts[1]).toMatch(/^cave_invalid_arguments: tools\/call needs params\.name .*available: echo/);
    expect(texts[2]).toMatch(
      /^cave_invalid_arguments: echo: arguments: .*received string \(saved as chip:\/\/c\d+\)$/,
    );
    expect(saved.at(-1)).toEqual({ tool: "echo", args: stringArgs });
  });

  it("treats a client that stops reading as a disconnect, not a crash", async () => {
    const h = await start();
    h.stdout.destroy();
    h.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(await handle!.closed).toBe("client_gone");
  });

  it("survives arbitrary bytes, JSON values and near-messages, answering a ping after them", async () => {
    const nearMessage = fc.record(
      {
        jsonrpc: fc.constantFrom("2.0", "1.0", 2),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.object()),
        method: fc.oneof(fc.constantFrom("ping", "tools/call", "tools/list", "initialize"), fc.string()),
        params: fc.oneof(fc.object(), fc.array(fc.anything()), fc.string(), fc.constant(null)),
        result: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const line = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? "null")),
      nearMessage.map((m) => Buffer.from(JSON.stringify(m))),
      fc.array(nearMessage, { maxLength: 4 }).map((m) => Buffer.from(JSON.stringify(m))),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 25 }), async (lines) => {
        const h = await start({ maxInboundBytes: 4096 });
        for (const l of lines) h.write(Buffer.concat([l, Buffer.from("\n")]));
        h.write('{"jsonrpc":"2.0","id":"fuzz-end","method":"ping"}\n');
        while (!h.lines.some((m) => (m as Msg).id === "fuzz-end")) await h.next(1);
        for (const raw of h.raw) {
          const parsed = JSON.parse(raw) as Msg | Msg[];
          for (const m of Array.isArray(parsed) ? parsed : [parsed]) expect(m.jsonrpc).toBe("2.0");
        }
        release?.();
        await handle?.close();
        handle = undefined;
      }),
      propertyParams(150),
    );
  });

  it("stops taking requests while the client is not reading answers, and resumes after", async () => {
    const stdin = new PassThrough();
    const got: string[] = [];
    let held: Array<() => void> | undefined = [];
    const stdout = new Writable({
      highWaterMark: 8,
      write(chunk: Buffer, _enc, cb) {
        got.push(chunk.toString("utf8"));
        if (held) held.push(() => cb());
        else cb();
      },
    });
    handle = await startServer({ stdin, stdout, tools, version: "0.0.0-test" });
    const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
    stdin.write(ping(1));
    while (got.length === 0) await new Promise((r) => setImmediate(r));
    // The client has read nothing: its further requests are held, not run; past 1 MiB of them
    // stdin is paused and the rest stays in the pipe.
    const total = 5000;
    for (let i = 2; i <= total; i++) stdin.write(ping(i));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(1);
    expect(stdin.isPaused()).toBe(true);
    expect(stdin.readableLength).toBeGreaterThan(0);
    const pending = held ?? [];
    held = undefined;
    for (const cb of pending) cb();
    while (got.join("").split("\n").filter(Boolean).length < total) await new Promise((r) => setImmediate(r));
    const ids = got
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as Msg).id);
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(stdin.isPaused()).toBe(false);
  });

  it("writes only JSON-RPC messages, one per line", async () => {
    const h = await start();
    h.write('garbage\n[]\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    await h.next(3);
    for (const line of h.raw) expect(JSON.parse(line)).toBeTypeOf("object");
  });
});
