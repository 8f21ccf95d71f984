import { describe, expect, it } from "vitest";
import { harness } from "./relay.test-helpers.js";

describe("MCP proxy relay", () => {
  it("forwards requests byte-exact and rewrites only large text of tools/call results", async () => {
    const h = harness();
    const call = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"logs","arguments":{}}}';
    const odd = '{ "jsonrpc" : "2.0", "id": "x", "method": "resources/list", "extra": 1 }';
    h.clientIn.write(`${call}\n${odd}\n`);
    await h.settle();
    expect(h.toServer).toEqual([call, odd]);
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      result: {
        content: [
          { type: "text", text: "x".repeat(500) },
          { type: "text", text: "small" },
        ],
      },
    });
    const other = '{"jsonrpc":"2.0","id":"x","result":{"resources":[]} }';
    h.serverOut.write(`${big}\n${other}\n`);
    await h.settle();
    // The unchanged answer passes at once; the shrunk one follows when its transform is done.
    expect(h.toClient[0]).toBe(other);
    expect(JSON.parse(h.toClient[1]!)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: {
        content: [
          { type: "text", text: "[short logs]" },
          { type: "text", text: "small" },
        ],
      },
    });
  });

  it("leaves errors untouched, and structured results whose shown parts are small", async () => {
    const h = harness();
    h.clientIn.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}\n',
    );
    await h.settle();
    const err = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      result: { isError: true, content: [{ type: "text", text: "e".repeat(500) }] },
    });
    const sc = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      result: { structuredContent: { a: 1 }, content: [{ type: "text", text: "small" }] },
    });
    h.serverOut.write(`${err}\n${sc}\n`);
    await h.settle();
    expect(h.toClient).toEqual([err, sc]);
  });

  it("answers malformed, invalid and oversized client lines itself and forwards none of them", async () => {
    const h = harness({ maxInboundBytes: 1024 });
    h.clientIn.write(
      `{nope\n[]\n{"id":3}\n{"jsonrpc":"2.0","id":9,"method":"x","params":{"p":"${"z".repeat(2000)}"}}\n`,
    );
    await h.settle();
    expect(h.toServer).toEqual([]);
    const replies = h.toClient.map((l) => JSON.parse(l) as { id: unknown; error: { code: number } });
    expect(replies.map((r) => r.error.code)).toEqual([-32700, -32600, -32600, -32600]);
    expect(replies[3]).toMatchObject({ error: { data: { code: "cave_payload_too_large", bytes: 2055 } } });
    expect(replies[3]!.id).toBe(9);
  });

  it("drops non-JSON server lines, answers oversized server answers, and answers open requests when the server goes", async () => {
    const h = harness({ maxUpstreamBytes: 1024 });
    h.clientIn.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    await h.settle();
    h.serverOut.write(
      `Server started on stdio!\n{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"${"q".repeat(3000)}"}]},"id":1}\n`,
    );
    h.serverOut.end();
    expect(await h.proxy.closed).toBe("upstream_gone");
    const replies = h.toClient.map(
      (l) => JSON.parse(l) as { id: unknown; error?: { data?: { code?: string } } },
    );
    expect(replies.map((r) => [r.id, r.error?.data?.code])).toEqual([
      [1, "cave_payload_too_large"],
      [2, "cave_upstream_gone"],
    ]);
    // The client's request was fine; the wrapped server's answer could not be delivered. That is
    // InternalError, as for an upstream that went away, never InvalidRequest (-32600), which
    // tells the client its own request was at fault.
    expect(JSON.parse(h.toClient[0]!)).toMatchObject({
      error: { code: -32603, data: { code: "cave_payload_too_large", bytes: 3073 } },
    });
  });

  it("adds caveman_retrieve to tools/list and serves it, unless the server has its own", async () => {
    const h = harness({ retrieve: true });
    const { handle } = h.ccr.put("the original\n");
    h.clientIn.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    h.clientIn.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"caveman_retrieve","arguments":{"recovery_handle":"${handle}"}}}\n`,
    );
    await h.settle();
    expect(h.toServer).toHaveLength(1);
    h.serverOut.write(
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"logs","inputSchema":{"type":"object"}}]}}\n',
    );
    await h.settle();
    const byId = new Map(h.toClient.map((l) => [JSON.parse(l).id, JSON.parse(l)]));
    expect(byId.get(2).result.content[0]).toEqual({ type: "text", text: "the original\n" });
    expect(byId.get(1).result.tools.map((t: { name: string }) => t.name)).toEqual([
      "logs",
      "caveman_retrieve",
    ]);
    // Answered once: the server leaving later owes the client nothing for it.
    h.serverOut.end();
    await h.proxy.closed;
    expect(h.toClient.filter((l) => JSON.parse(l).id === 2)).toHaveLength(1);
  });

  it("on client EOF closes the server's stdin and finishes once the server leaves", async () => {
    const h = harness();
    h.clientIn.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    h.clientIn.end();
    await h.settle();
    expect(h.serverIn.writableEnded).toBe(true);
    // The server still answers what it had, then leaves.
    h.serverOut.write('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    h.serverOut.end();
    expect(await h.proxy.closed).toBe("eof");
    expect(h.toClient).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
  });
});
