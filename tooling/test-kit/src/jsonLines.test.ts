import { describe, expect, it } from "vitest";
import { LineReader, parseJsonLines } from "./jsonLines.js";

describe("LineReader", () => {
  it("frames lines across chunk boundaries and holds back the partial tail", () => {
    const r = new LineReader();
    expect(r.push('{"a":')).toBe(0);
    expect(r.push('1}\n{"b"')).toBe(1);
    expect(r.lines).toEqual(['{"a":1}']);
    expect(r.partial).toBe('{"b"');
    expect(r.push(":2}\n\n")).toBe(2);
    expect(r.values()).toEqual([{ a: 1 }, { b: 2 }]);
  });
  it("does not mangle a UTF-8 character split between chunks", () => {
    const bytes = Buffer.from('"é"\n', "utf8");
    const r = new LineReader();
    r.push(bytes.subarray(0, 2));
    r.push(bytes.subarray(2));
    expect(r.values()).toEqual(["é"]);
  });
});

describe("parseJsonLines", () => {
  it("ignores a trailing partial line from a killed writer", () => {
    expect(parseJsonLines('{"n":1}\n{"n":2}\n{"n":')).toEqual([{ n: 1 }, { n: 2 }]);
  });
  it("throws on a whole line that is not JSON", () => {
    expect(() => parseJsonLines("not json\n")).toThrow();
  });
});
