import { describe, expect, it } from "vitest";
import { LineFramer } from "./framing.js";

const lines = (frames: ReturnType<LineFramer["push"]>) =>
  frames.map((f) => (f.kind === "line" ? f.bytes.toString("utf8") : `<oversized ${f.length}>`));

describe("LineFramer", () => {
  it("splits lines across arbitrary chunk boundaries", () => {
    const f = new LineFramer(1024);
    const out = [...lines(f.push(Buffer.from('{"a":1}\n{"b"'))), ...lines(f.push(Buffer.from(":2}\n\n")))];
    expect(out).toEqual(['{"a":1}', '{"b":2}', ""]);
  });

  it("reassembles a UTF-8 character split between chunks", () => {
    const f = new LineFramer(1024);
    const bytes = Buffer.from('"héllo €"\n', "utf8");
    const cut = bytes.indexOf(0xe2) + 1; // inside the three-byte euro sign
    const out = [...lines(f.push(bytes.subarray(0, cut))), ...lines(f.push(bytes.subarray(cut)))];
    expect(out).toEqual(['"héllo €"']);
  });

  it("drops an oversized line to its newline, reports its length once and resynchronises", () => {
    const f = new LineFramer(10);
    const frames = [...f.push(Buffer.from("x".repeat(8))), ...f.push(Buffer.from(`${"y".repeat(20)}\nok\n`))];
    expect(frames.map((fr) => fr.kind)).toEqual(["oversized", "line"]);
    expect(frames[0]).toMatchObject({ kind: "oversized", length: 28 });
    expect(lines([frames[1]!])).toEqual(["ok"]);
  });

  it("keeps both ends of an oversized line so an id can still be read", () => {
    const f = new LineFramer(100);
    const line = `{"method":"tools/call","params":{"x":"${"z".repeat(5000)}"},"jsonrpc":"2.0","id":42}`;
    const [frame] = f.push(Buffer.from(`${line}\n`));
    expect(frame?.kind).toBe("oversized");
    if (frame?.kind === "oversized") {
      expect(frame.head.startsWith('{"method"')).toBe(true);
      expect(frame.tail.endsWith('"id":42}')).toBe(true);
    }
  });

  it("yields a final unterminated line at end of input", () => {
    const f = new LineFramer(100);
    expect(f.push(Buffer.from('{"a":1}'))).toEqual([]);
    expect(lines(f.end())).toEqual(['{"a":1}']);
    expect(f.end()).toEqual([]);
  });

  it("handles a million small lines in one pass", () => {
    const f = new LineFramer(100);
    const big = Buffer.from("1\n".repeat(1_000_000));
    expect(f.push(big)).toHaveLength(1_000_000);
  });
});
