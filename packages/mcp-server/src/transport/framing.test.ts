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

describe("LineFramer memory and caps", () => {
  it("holds a line dripped one byte at a time in at most twice its length", () => {
    const f = new LineFramer(16 * 1024 * 1024);
    const line = Buffer.from("z".repeat(300_000));
    let worst = 0;
    for (let i = 0; i < line.length; i++) {
      expect(f.push(line.subarray(i, i + 1))).toEqual([]);
      const held = f.heldBytes;
      if (i + 1 >= 1024) worst = Math.max(worst, held / (i + 1));
    }
    expect(worst).toBeLessThanOrEqual(2);
    const [frame] = f.push(Buffer.from("\n"));
    expect(frame).toMatchObject({ kind: "line" });
    expect((frame as { bytes: Buffer }).bytes.equals(line)).toBe(true);
    expect(f.heldBytes).toBe(0);
  });

  it("does not keep a whole read buffer alive for the few bytes of a line it started", () => {
    const f = new LineFramer(1024 * 1024);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    chunk[chunk.length - 11] = 0x0a;
    f.push(chunk); // one 65,524-byte line, then the first 10 bytes of the next
    expect(f.heldBytes).toBeLessThanOrEqual(1024);
  });

  it("does not count a CR before the newline toward the cap", () => {
    const f = new LineFramer(10);
    expect(lines(f.push(Buffer.from(`${"a".repeat(10)}\r\n`)))).toEqual([`${"a".repeat(10)}\r`]);
    // Split so the CR arrives in its own chunk.
    expect(f.push(Buffer.from("b".repeat(10)))).toEqual([]);
    expect(lines([...f.push(Buffer.from("\r")), ...f.push(Buffer.from("\n"))])).toEqual([
      `${"b".repeat(10)}\r`,
    ]);
    // One more byte that is not a CR is over the cap, whole or in pieces.
    expect(lines(f.push(Buffer.from(`${"c".repeat(11)}\n`)))).toEqual(["<oversized 11>"]);
    expect(lines([...f.push(Buffer.from("d".repeat(11))), ...f.push(Buffer.from("\n"))])).toEqual([
      "<oversized 11>",
    ]);
  });
});
