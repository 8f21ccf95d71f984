import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeSpliced } from "./bytesplice.js";
import { countEols, decode, encode } from "./lines.js";
import { type Region, splice } from "./splice.js";

const piece = fc.constantFrom("", "a", "é", "😀x", "\r", " {");
const file = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(piece, fc.constantFrom("\n", "\r\n")), { maxLength: 10 }),
    fc.constantFrom("", "end"),
  )
  .map(([bom, body, tail]) =>
    Buffer.from((bom ? "\uFEFF" : "") + body.map(([l, e]) => l + e).join("") + tail, "utf8"),
  );

describe("splice", () => {
  it("encodes by copying byte runs exactly as a full re-encode would", () => {
    fc.assert(
      fc.property(
        file,
        fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.array(piece, { maxLength: 3 })), { maxLength: 4 }),
        (bytes, raw) => {
          const doc = decode(bytes, "f");
          const n = doc.lines.length;
          const regions: Region[] = [];
          let floor = 0;
          for (const [at, len, lines] of raw) {
            const start = floor + (at % (n - floor + 1));
            const end = Math.min(n, start + len);
            regions.push({ start, end, lines, edit: regions.length });
            floor = end;
            if (floor >= n) break;
          }
          const { doc: next, from } = splice(doc, regions, true);
          const { bytes: out, splices } = encodeSpliced(doc, bytes, next, from);
          expect(out.equals(encode(next))).toBe(true);
          // The line-ending counts it carries over equal a fresh count of the result.
          expect(countEols(next)).toEqual(countEols({ ...next, eols: [...next.eols] }));
          // Replaying the splices backwards over the new bytes must give the old bytes.
          let rebuilt = Buffer.alloc(0);
          let pos = 0;
          for (const p of splices) {
            rebuilt = Buffer.concat([rebuilt, out.subarray(pos, p.at), bytes.subarray(p.oldStart, p.oldEnd)]);
            pos = p.at + p.inserted;
          }
          expect(Buffer.concat([rebuilt, out.subarray(pos)]).equals(bytes)).toBe(true);
        },
      ),
      propertyParams(500),
    );
  });

  it("refuses overlapping regions, naming both edits", () => {
    const doc = decode(Buffer.from("a\nb\nc\n"), "f");
    const regions: Region[] = [
      { start: 0, end: 2, lines: ["x"], edit: 0 },
      { start: 1, end: 2, lines: ["y"], edit: 1 },
    ];
    expect(() => splice(doc, regions, true)).toThrow(/edits 1 .* and 2 .* overlap/);
  });

  it("gives a line appended after a last line without a newline its own line", () => {
    const doc = decode(Buffer.from("a\r\nb"), "f");
    const { doc: next } = splice(doc, [{ start: 2, end: 2, lines: ["c"], edit: 0 }], true);
    expect(encode(next).toString()).toBe("a\r\nb\r\nc");
  });
});
