import { describe, expect, it } from "vitest";
import { decode, encode, sha256 } from "./lines.js";
import { decodesTo, Snapshots, snapshotCost } from "./snapshots.js";

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

  it("drops the least recently used files past its memory budget", () => {
    const a0 = snap("aaaaaaaa\n");
    // Room for two of these three equal-cost files, not for the third.
    const s = new Snapshots(2 * snapshotCost(a0.bytes, a0.doc) + 1);
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
    const big = Buffer.alloc(s.maxBytes, 97);
    s.remember("/big", big, "h", decode(big, "big"));
    expect(s.get("/big", big)).toBeUndefined();
  });

  it("counts a file's lines, not only its bytes, against the budget", () => {
    const text = "x\n".repeat(1000);
    const t = snap(text);
    // 2,000 bytes of file fit a 4,000-byte budget by bytes alone, but their 1,000 lines do not.
    expect(snapshotCost(t.bytes, t.doc)).toBe(2 * 2000 + 48 * 1000);
    const s = new Snapshots(4000);
    s.remember("/lines", t.bytes, t.hash, t.doc);
    expect(s.get("/lines", t.bytes)).toBeUndefined();
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
