// The stdio server reads JSON-RPC lines: malformed, oversized, batched and fuzzed input gets
// the wire answer the contract names, and stdout carries only JSON-RPC messages.
import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { call, type Msg, release, start, stop } from "./server.test-helpers.js";

afterEach(stop);

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
        await stop();
      }),
      propertyParams(150),
    );
  });

  it("writes only JSON-RPC messages, one per line", async () => {
    const h = await start();
    h.write('garbage\n[]\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    await h.next(3);
    for (const line of h.raw) expect(JSON.parse(line)).toBeTypeOf("object");
  });
});
