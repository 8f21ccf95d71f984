import { join } from "node:path";
import { openChipStore } from "@caveman/chip-store";
import { tempDir } from "@caveman/test-kit";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { FailureCapture } from "./capture.js";
import { silentLogger } from "./logger.js";

function store() {
  return openChipStore({ dir: join(tempDir("caveman-capture-"), "chips") });
}

const errResult = (text: string) =>
  ({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text }], isError: true },
  }) as unknown as JSONRPCMessage;

describe("FailureCapture with a real chip store", () => {
  it("saves long raw arguments of a failed call and ends the error text with the chip", () => {
    const chips = store();
    const cap = new FailureCapture(chips, silentLogger);
    const args = { path: "x.ts", content: "y".repeat(200) };
    cap.onRequest(1, { method: "tools/call", params: { name: "be-write", arguments: args } });
    const out = cap.onResponse(1, errResult("be_outside_roots: nope")) as unknown as {
      result: { content: Array<{ text: string }> };
    };
    const m = /^be_outside_roots: nope \(saved as chip:\/\/([0-9a-f]{6})\)$/.exec(
      out.result.content[0]!.text,
    );
    expect(m).not.toBeNull();
    expect(chips.get(m![1]!).args).toEqual(args);
  });

  it("adds nothing for short arguments or successful results", () => {
    const chips = store();
    const cap = new FailureCapture(chips, silentLogger);
    cap.onRequest(1, { method: "tools/call", params: { name: "t", arguments: { a: 1 } } });
    const short = errResult("cave_x: short");
    expect(cap.onResponse(1, short)).toBe(short);
    cap.onRequest(2, { method: "tools/call", params: { name: "t", arguments: { a: "z".repeat(100) } } });
    const ok = { jsonrpc: "2.0", id: 2, result: { content: [] } } as unknown as JSONRPCMessage;
    expect(cap.onResponse(2, ok)).toBe(ok);
    expect(chips.list()).toHaveLength(0);
  });

  it("annotates protocol errors too, and keeps a non-JSON tools/call line as a chip of the raw line", () => {
    const chips = store();
    const cap = new FailureCapture(chips, silentLogger);
    cap.onRequest(3, {
      method: "tools/call",
      params: { name: "be-write", arguments: `not an object, and long enough to be kept: ${"w".repeat(40)}` },
    });
    const out = cap.onResponse(3, {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32602, message: "Invalid params" },
    } as JSONRPCMessage);
    expect((out as unknown as { error: { message: string } }).error.message).toMatch(
      /^Invalid params \(saved as chip:\/\/[0-9a-f]{6}\)$/,
    );
    const line = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"be-write","arguments":{"content":"${"q".repeat(80)}`;
    const note = cap.onUnparseable(line);
    const id = /chip:\/\/([0-9a-f]{6})/.exec(note ?? "")![1]!;
    expect(chips.get(id)).toMatchObject({ tool: "be-write", args: line });
    expect(cap.onUnparseable("just garbage, no method")).toBeUndefined();
  });
});
