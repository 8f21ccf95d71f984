// The stdio server runs tools: protocol negotiation, tool errors as wire errors, and the
// arguments of a refused call kept as a chip.
import { afterEach, describe, expect, it } from "vitest";
import { call, type Msg, saved, start, stop } from "./server.test-helpers.js";

afterEach(stop);

describe("hardened stdio server", () => {
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
});
