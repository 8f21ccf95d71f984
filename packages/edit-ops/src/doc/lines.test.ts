import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decode, dominantEol, encode, lineEndingStyle, splitContent } from "./lines.js";

const enc = (s: string) => Buffer.from(s, "utf8");

describe("decode/encode", () => {
  it("round-trips every accepted file byte for byte", () => {
    const piece = fc.constantFrom("a", "é", "😀", " ", "\t", "\r", "\n", "\r\n", "\uFEFF", "x\r");
    fc.assert(
      fc.property(fc.boolean(), fc.array(piece, { maxLength: 40 }), (bom, parts) => {
        const buf = enc((bom ? "\uFEFF" : "") + parts.join(""));
        expect(encode(decode(buf, "f")).equals(buf)).toBe(true);
      }),
      propertyParams(),
    );
  });

  it("keeps each line's own ending and the final-newline state", () => {
    const doc = decode(enc("a\r\nb\nc"), "f");
    expect(doc.lines).toEqual(["a", "b", "c"]);
    expect(doc.eols).toEqual(["\r\n", "\n", ""]);
    expect(lineEndingStyle(doc)).toBe("mixed");
  });

  it("treats an empty file as zero lines and a lone CR as text", () => {
    expect(decode(enc(""), "f").lines).toEqual([]);
    expect(decode(enc("a\rb\n"), "f").lines).toEqual(["a\rb"]);
  });

  it("refuses UTF-16, NUL bytes and invalid UTF-8 with typed errors", () => {
    expect(() => decode(Buffer.from([0xff, 0xfe, 0x61, 0x00]), "f")).toThrow(
      expect.objectContaining({ code: "unsupported_encoding" }),
    );
    expect(() => decode(Buffer.from([0x61, 0x00, 0x62]), "f")).toThrow(
      expect.objectContaining({ code: "binary_file" }),
    );
    expect(() => decode(Buffer.from([0x61, 0xc3, 0x28]), "f")).toThrow(
      expect.objectContaining({ code: "binary_file" }),
    );
  });

  it("picks the more common ending for new lines, LF on a tie", () => {
    expect(dominantEol(decode(enc("a\r\nb\r\nc\n"), "f"))).toBe("\r\n");
    expect(dominantEol(decode(enc("a\r\nb\n"), "f"))).toBe("\n");
    expect(dominantEol(decode(enc("a"), "f"))).toBe("\n");
  });
});

describe("splitContent", () => {
  it("lets one trailing newline end the last line rather than add an empty one", () => {
    expect(splitContent("a\nb\n").lines).toEqual(["a", "b"]);
    expect(splitContent("a\nb").lines).toEqual(["a", "b"]);
    expect(splitContent("").lines).toEqual([]);
    expect(splitContent("\n").lines).toEqual([""]);
    expect(splitContent("a\r\n\r\n")).toEqual({ lines: ["a", ""], endsWithNewline: true, hadCrlf: true });
  });
});
