// The proxy's round-three findings at the relay: a wrapped tool named like ours (5), answers that
// are not valid UTF-8 (4), compression that takes its time (3), and structured results (issue 23).
import { describe, expect, it } from "vitest";
import { harness } from "./relay.test-helpers.js";

describe("MCP proxy relay, held to the server's transport rules", () => {
  it("renames a wrapped tool named like ours <server>__caveman_retrieve, keeps ours, and routes each call (finding 5)", async () => {
    const h = harness({ retrieve: true });
    const { handle } = h.ccr.put("ours to serve\n");
    h.clientIn.write(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n',
    );
    await h.settle();
    h.serverOut.write(
      '{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"fixture srv","version":"1"}}}\n',
    );
    h.serverOut.write(
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"caveman_retrieve","description":"theirs","inputSchema":{"type":"object"}}]}}\n',
    );
    await h.settle();
    const list = JSON.parse(h.toClient.find((l) => JSON.parse(l).id === 1)!);
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual([
      "fixture_srv__caveman_retrieve",
      "caveman_retrieve",
    ]);
    expect(list.result.tools[0].description).toMatch(
      /^\(The wrapped server's own caveman_retrieve, renamed by caveman-mcp proxy\.\) theirs$/,
    );
    h.clientIn.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"caveman_retrieve","arguments":{"recovery_handle":"${handle}"}}}\n`,
    );
    h.clientIn.write(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fixture_srv__caveman_retrieve","arguments":{"q":1}}}\n',
    );
    await h.settle();
    const ours = JSON.parse(h.toClient.find((l) => JSON.parse(l).id === 2)!);
    expect(ours.result.content[0]).toEqual({ type: "text", text: "ours to serve\n" });
    expect(JSON.parse(h.toServer.at(-1)!)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "caveman_retrieve", arguments: { q: 1 } },
    });
  });

  it("passes an answer holding invalid UTF-8 through byte for byte (finding 4)", async () => {
    const h = harness();
    const got: Buffer[] = [];
    h.clientOut.on("data", (c: Buffer) => got.push(c));
    h.clientIn.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bin"}}\n');
    await h.settle();
    const answer = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"lone '),
      Buffer.from([0xff]),
      Buffer.from(' byte"}]}}'),
    ]);
    h.serverOut.write(Buffer.concat([answer, Buffer.from("\n")]));
    await h.settle();
    expect(Buffer.compare(Buffer.concat(got), Buffer.concat([answer, Buffer.from("\n")]))).toBe(0);
    // Answered: the server leaving later owes the client nothing more for it.
    h.serverOut.end();
    await h.proxy.closed;
    expect(Buffer.concat(got).toString("latin1").split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("keeps relaying while a result is being compressed: a later ping's answer is not held up (finding 3)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const h = harness({
      transform: async (_tool, text) => {
        await gate;
        return text.length > 100 ? "[slow]" : null;
      },
    });
    h.clientIn.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    await h.settle();
    h.serverOut.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "y".repeat(500) }] } })}\n`,
    );
    h.serverOut.write('{"jsonrpc":"2.0","id":2,"result":{}}\n');
    await h.settle();
    expect(h.toClient).toEqual(['{"jsonrpc":"2.0","id":2,"result":{}}']);
    release();
    await h.settle();
    expect(JSON.parse(h.toClient[1]!).result.content[0].text).toBe("[slow]");
  });

  it("shrinks what the host shows of a structured result, and drops outputSchema from tools/list", async () => {
    const h = harness({ retrieve: true });
    h.clientIn.write(
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"rows"}}\n',
    );
    await h.settle();
    h.serverOut.write(
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"rows","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}}\n',
    );
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i }));
    h.serverOut.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        result: {
          content: [
            { type: "text", text: JSON.stringify({ rows }) },
            { type: "image", data: "AA==", mimeType: "image/png" },
          ],
          structuredContent: { rows },
        },
      })}\n`,
    );
    await h.settle();
    const list = JSON.parse(h.toClient.find((l) => JSON.parse(l).id === 1)!);
    expect(list.result.tools[0]).toEqual({ name: "rows", inputSchema: { type: "object" } });
    const call = JSON.parse(h.toClient.find((l) => JSON.parse(l).id === 2)!);
    expect(call.result).toEqual({
      content: [
        { type: "text", text: "[short rows]" },
        { type: "image", data: "AA==", mimeType: "image/png" },
      ],
    });
  });
});
