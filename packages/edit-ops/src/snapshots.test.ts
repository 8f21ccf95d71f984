import { describe, expect, it } from "vitest";
import { decodesTo, Snapshots } from "./snapshots.js";
import { decode, encode, sha256 } from "./text.js";

const snap = (text: string) => {
  const bytes = Buffer.from(text);
  return { bytes, hash: sha256(bytes), doc: decode(bytes, "f") };
};

describe("Snapshots", () => {
  it("serves a document only for byte-identical content", () => {
    const s = new Snapshots();
    const a = snap("one\ntwo\n");
    s.remember("/f", a.bytes, a.hash, a.doc);
    expect(s.get("/f", Buffer.from("one\ntwo\n"))?.hash).toBe(a.hash);
    // Same length, one byte different: another writer's content is never taken for ours.
    expect(s.get("/f", Buffer.from("one\ntwO\n"))).toBeUndefined();
    expect(s.get("/g", Buffer.from("one\ntwo\n"))).toBeUndefined();
    s.forget("/f");
    expect(s.get("/f", a.bytes)).toBeUndefined();
  });

  it("drops the least recently used files past its byte budget", () => {
    const s = new Snapshots(20);
    const a = snap("aaaaaaaa\n");
    const b = snap("bbbbbbbb\n");
    const c = snap("cccccccc\n");
    s.remember("/a", a.bytes, a.hash, a.doc);
    s.remember("/b", b.bytes, b.hash, b.doc);
    expect(s.get("/a", a.bytes)).toBeDefined();
    s.remember("/c", c.bytes, c.hash, c.doc);
    expect(s.get("/b", b.bytes)).toBeUndefined();
    expect(s.get("/a", a.bytes)).toBeDefined();
    expect(s.get("/c", c.bytes)).toBeDefined();
    s.remember("/big", Buffer.alloc(21, 97), "h", decode(Buffer.alloc(21, 97), "big"));
    expect(s.get("/big", Buffer.alloc(21, 97))).toBeUndefined();
  });
});

describe("decodesTo", () => {
  const fresh = (n: number) => new Int32Array(n).fill(-1);
  it("accepts what decode itself produces", () => {
    for (const text of ["", "a", "a\r\nb\n", "\uFEFFx\ny", "a\rb\n", "a\r\r\n"]) {
      const doc = decode(Buffer.from(text), "f");
      expect(decodesTo(doc, fresh(doc.lines.length)), JSON.stringify(text)).toBe(true);
      expect(encode(doc).toString()).toBe(text);
    }
  });

  it("refuses documents whose bytes would read back otherwise", () => {
    const cases = [
      { bom: false, lines: ["a\r"], eols: ["\n" as const] },
      { bom: false, lines: ["\uFEFFa"], eols: ["\n" as const] },
      { bom: false, lines: ["a", ""], eols: ["\n" as const, "" as const] },
    ];
    for (const doc of cases) expect(decodesTo(doc, fresh(doc.lines.length)), JSON.stringify(doc)).toBe(false);
  });
});
