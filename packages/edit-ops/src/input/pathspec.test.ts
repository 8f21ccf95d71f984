import { describe, expect, it } from "vitest";
import { parsePathSpec } from "./pathspec.js";

describe("parsePathSpec", () => {
  it("reads a single line, a range and ALL from the suffix", () => {
    expect(parsePathSpec("src/a.ts:10")).toEqual({ path: "src/a.ts", start_line: 10, end_line: 10 });
    expect(parsePathSpec("src/a.ts:5-15")).toEqual({ path: "src/a.ts", start_line: 5, end_line: 15 });
    expect(parsePathSpec("src/a.ts:ALL")).toEqual({ path: "src/a.ts", all: true });
    expect(parsePathSpec("src/a.ts:all")).toEqual({ path: "src/a.ts", all: true });
  });

  it("leaves a plain path alone", () => {
    expect(parsePathSpec("src/a.ts")).toEqual({ path: "src/a.ts" });
    expect(parsePathSpec("dir:name/a.ts")).toEqual({ path: "dir:name/a.ts" });
  });

  it("keeps zero and negative numbers for the editor to judge", () => {
    expect(parsePathSpec("a.ts:0")).toEqual({ path: "a.ts", start_line: 0, end_line: 0 });
    expect(parsePathSpec("a.ts:-3")).toEqual({ path: "a.ts", start_line: -3, end_line: -3 });
  });

  it("never takes a Windows drive colon for a position", () => {
    expect(parsePathSpec("C:\\src\\a.ts")).toEqual({ path: "C:\\src\\a.ts" });
    expect(parsePathSpec("C:\\src\\a.ts:7")).toEqual({ path: "C:\\src\\a.ts", start_line: 7, end_line: 7 });
    expect(parsePathSpec("C:12")).toEqual({ path: "C:12" });
    expect(parsePathSpec("d:/x/a.ts:2-3")).toEqual({ path: "d:/x/a.ts", start_line: 2, end_line: 3 });
  });

  it("decodes file URIs, with positions as a suffix or a #L fragment", () => {
    expect(parsePathSpec("file:///home/u/a%20b.ts")).toEqual({ path: "/home/u/a b.ts" });
    expect(parsePathSpec("file:///home/u/a.ts:4")).toEqual({
      path: "/home/u/a.ts",
      start_line: 4,
      end_line: 4,
    });
    expect(parsePathSpec("file://localhost/home/u/a.ts#L4-L9")).toEqual({
      path: "/home/u/a.ts",
      start_line: 4,
      end_line: 9,
    });
    expect(parsePathSpec("file:///C:/work/a.ts:ALL")).toEqual({ path: "C:/work/a.ts", all: true });
    // A name that really ends in ":5" is reachable with an encoded colon.
    expect(parsePathSpec("file:///work/name%3A5")).toEqual({ path: "/work/name:5" });
    expect(parsePathSpec("file:///work/name%3A5:2")).toEqual({
      path: "/work/name:5",
      start_line: 2,
      end_line: 2,
    });
  });

  it("refuses empty paths, NUL bytes, remote hosts and broken escapes", () => {
    for (const bad of ["", "a\0b", "file://server/share/a.ts", "file:///a%zz"]) {
      expect(() => parsePathSpec(bad)).toThrow(expect.objectContaining({ code: "invalid_argument" }));
    }
    expect(() => parsePathSpec("a.ts:99999999999999999999")).toThrow(
      expect.objectContaining({ code: "invalid_range" }),
    );
  });
});
