import { describe, expect, it } from "vitest";
import { classify, decodeLine, sniffId } from "./message.js";

describe("decodeLine", () => {
  it("skips blank lines and strips a BOM and a trailing CR", () => {
    expect(decodeLine(Buffer.from("   \t"))).toEqual({ kind: "skip" });
    const d = decodeLine(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\r')]));
    expect(d).toMatchObject({ kind: "json", value: { a: 1 } });
  });

  it("refuses invalid UTF-8 instead of altering it", () => {
    const d = decodeLine(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(d.kind).toBe("bad");
    if (d.kind === "bad") expect(d.reason).toContain("UTF-8");
  });

  it("reports malformed JSON with the parser's reason", () => {
    const d = decodeLine(Buffer.from('{"jsonrpc":"2.0",'));
    expect(d.kind).toBe("bad");
  });
});

describe("classify", () => {
  it("strips unknown top-level keys from a valid request", () => {
    const c = classify({ jsonrpc: "2.0", id: 1, method: "ping", extra: true, trace: { a: 1 } });
    expect(c).toEqual({ kind: "request", message: { jsonrpc: "2.0", id: 1, method: "ping" } });
  });

  it("tells notifications and responses apart from requests", () => {
    expect(classify({ jsonrpc: "2.0", method: "notifications/initialized" }).kind).toBe("notification");
    expect(classify({ jsonrpc: "2.0", id: 3, result: {} }).kind).toBe("response");
  });

  it("answers invalid messages with their id when it can be read", () => {
    expect(classify({ jsonrpc: "1.0", id: 7, method: "ping" })).toMatchObject({ kind: "invalid", id: 7 });
    expect(classify({ jsonrpc: "2.0", id: "a", method: 5 })).toMatchObject({ kind: "invalid", id: "a" });
    expect(classify({ jsonrpc: "2.0", id: 1.5, method: "ping" })).toMatchObject({
      kind: "invalid",
      id: null,
    });
    expect(classify({ jsonrpc: "2.0", id: 2, method: "x", params: [1] })).toMatchObject({
      kind: "invalid",
      id: 2,
    });
    expect(classify(42)).toMatchObject({ kind: "invalid", id: null });
    expect(classify({ jsonrpc: "2.0", id: 9 })).toMatchObject({ kind: "invalid", id: 9 });
  });
});

describe("sniffId", () => {
  it("reads an id at the start or at the end of a line", () => {
    expect(sniffId('{"jsonrpc":"2.0","id":12,"method":"x"', "")).toBe(12);
    expect(sniffId('{"method":"tools/call"', '..."},"jsonrpc":"2.0","id":"req-9"}')).toBe("req-9");
    expect(sniffId('{"method":"tools/call"', '..."inner":{"id":3}}}')).toBeNull();
  });
});
