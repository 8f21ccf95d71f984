import { describe, expect, it } from "vitest";
import { findFunction, findMarker, findTag, resolveTarget } from "./targets.js";

const ts = [
  "class Box {",
  "  @memo",
  "  area(): number {",
  "    const s = '}';",
  "    if (this.w) {",
  "      return this.w * this.h; // }",
  "    }",
  "    return 0;",
  "  }",
  "}",
  "const helper = async (x: number) => {",
  "  return x;",
  "};",
];

const py = [
  "import os",
  "",
  "class Thing:",
  "    def first(self):",
  "        x = 1",
  "",
  "        return x",
  "",
  "    def second(self):",
  "        return 2",
  "",
  "def top():",
  "    pass",
];

describe("function targets", () => {
  it("finds a named brace-language function, skipping braces in strings and comments", () => {
    expect(findFunction(ts, "area", undefined)).toEqual({ start: 1, end: 8 });
    expect(findFunction(ts, "helper", undefined)).toEqual({ start: 10, end: 12 });
    expect(findFunction(ts, "Box", undefined)).toEqual({ start: 0, end: 9 });
  });

  it("picks the innermost function around a line, not an if block", () => {
    expect(findFunction(ts, undefined, 5)).toEqual({ start: 1, end: 8 });
    expect(findFunction(ts, undefined, 11)).toEqual({ start: 10, end: 12 });
  });

  it("uses indentation for Python, keeping blank lines inside the block", () => {
    expect(findFunction(py, "first", undefined)).toEqual({ start: 3, end: 6 });
    expect(findFunction(py, undefined, 9)).toEqual({ start: 8, end: 9 });
    expect(findFunction(py, "Thing", undefined)).toEqual({ start: 2, end: 9 });
    expect(findFunction(py, "top", undefined)).toEqual({ start: 11, end: 12 });
  });

  it("says not_found rather than guessing", () => {
    expect(() => findFunction(py, undefined, 0)).toThrow(expect.objectContaining({ code: "not_found" }));
    expect(() => findFunction(ts, "missing", undefined)).toThrow(
      expect.objectContaining({ code: "not_found" }),
    );
  });
});

describe("tag targets", () => {
  const html = [
    "<!doctype html>",
    "<html>",
    "<!-- <div> in a comment -->",
    "<body>",
    '  <div class="a">',
    "    <img src=x>",
    "    <br/>",
    "    <span>hi</span>",
    "  </div>",
    "</body>",
    "</html>",
  ];
  it("finds the innermost element around a line and the first element by name", () => {
    expect(findTag(html, undefined, 5)).toEqual({ start: 4, end: 8 });
    expect(findTag(html, "span", undefined)).toEqual({ start: 7, end: 7 });
    expect(findTag(html, "BODY", undefined)).toEqual({ start: 3, end: 9 });
  });
  it("says not_found for a missing element", () => {
    expect(() => findTag(html, "table", undefined)).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});

describe("marker and target checks", () => {
  it("finds the first line containing the text", () => {
    expect(findMarker(py, "def", 0)).toEqual({ start: 3, end: 3 });
  });
  it("refuses a target line outside the file and a target without name or line", () => {
    expect(() => resolveTarget(py, { kind: "function", line: 99 })).toThrow(
      expect.objectContaining({ code: "out_of_range" }),
    );
    expect(() => resolveTarget(py, { kind: "tag" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => resolveTarget(py, { kind: "marker", text: "" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });
});

describe("hostile inputs", () => {
  it("answers for a file of 100,000 unclosed blocks without scanning from every one of them", () => {
    const open = Array.from({ length: 100_000 }, (_, i) => `function f${i}() {`);
    expect(() => findFunction(open, undefined, 99_000)).toThrow(
      expect.objectContaining({ code: "not_found" }),
    );
    const closed = [...open.slice(0, 50_000), "  return 1;", ...Array.from({ length: 50_000 }, () => "}")];
    expect(findFunction(closed, undefined, 50_000)).toEqual({ start: 49_999, end: 50_001 });
    expect(findFunction(closed, "f0", undefined)).toEqual({ start: 0, end: 100_000 });
  });

  it("skips a pathological megabyte line instead of backtracking on it", () => {
    const lines = [`a(${"):".repeat(500_000)}=`, "function g() {", "}"];
    expect(findFunction(lines, undefined, 1)).toEqual({ start: 1, end: 2 });
  });

  it("pairs close tags in a file of unclosed elements and stray close tags", () => {
    const lines = [
      ...Array.from({ length: 50_000 }, () => "<div>"),
      ...Array.from({ length: 50_000 }, () => "</span>"),
      "<p>",
      "</p>",
    ];
    expect(findTag(lines, undefined, 100_000)).toEqual({ start: 100_000, end: 100_001 });
    expect(() => findTag(lines, "div", undefined)).toThrow(expect.objectContaining({ code: "not_found" }));
  });
});
