import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { failure, lines, setup } from "./helpers.js";

const sha = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

describe("read", () => {
  it("numbers the lines of a range and hashes the file and the range", async () => {
    const { editor, file, bytes } = setup();
    file("a.ts", "alpha\nbeta\ngamma\ndelta\n");
    const r = await editor.read({ path: "a.ts:2-3" });
    expect(r.numbered).toBe("2\tbeta\n3\tgamma");
    expect(r.content).toBe("beta\ngamma\n");
    expect(r.total_lines).toBe(4);
    expect(r.hash).toBe(sha(bytes("a.ts")));
    expect(r.range_hash).toBe(sha("beta\ngamma\n"));
    expect(r).toMatchObject({
      start_line: 2,
      end_line: 3,
      truncated: false,
      next: null,
      final_newline: true,
    });
  });

  it("reads the whole file by default and with :ALL", async () => {
    const { editor, file } = setup();
    file("a.txt", "x\ny");
    for (const path of ["a.txt", "a.txt:ALL"]) {
      const r = await editor.read({ path });
      expect(r).toMatchObject({ start_line: 1, end_line: 2, final_newline: false, content: "x\ny" });
    }
  });

  it("reads from start_line to the end when only start_line is a field", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(5));
    const r = await editor.read({ path: "a.txt", start_line: 4 });
    expect(r.numbered).toBe("4\tline 4\n5\tline 5");
  });

  it("reads an empty file as zero lines", async () => {
    const { editor, file } = setup();
    file("e.txt", "");
    const r = await editor.read({ path: "e.txt" });
    expect(r).toMatchObject({ total_lines: 0, start_line: 0, end_line: 0, numbered: "", content: "" });
  });

  it("caps a large read by lines and points at the next range", async () => {
    const { editor, file } = setup({ maxReadLines: 100 });
    file("big.txt", lines(250));
    const r = await editor.read({ path: "big.txt" });
    expect(r).toMatchObject({
      start_line: 1,
      end_line: 100,
      truncated: true,
      next: { start_line: 101, end_line: 250 },
    });
    const r2 = await editor.read({ path: "big.txt", start_line: 101, end_line: 250 });
    expect(r2.end_line).toBe(200);
  });

  it("caps a read by bytes and cuts a single line longer than the cap, saying so", async () => {
    const { editor, file } = setup({ maxReadBytes: 1000 });
    file("wide.txt", `${"a".repeat(300)}\n`.repeat(10));
    const r = await editor.read({ path: "wide.txt" });
    expect(r.end_line).toBe(3);
    expect(r.next).toEqual({ start_line: 4, end_line: 10 });
    file("one.txt", `${"b".repeat(5000)}\nnext\n`);
    const r2 = await editor.read({ path: "one.txt" });
    expect(r2.clipped_line).toBe(1);
    expect(r2.content.length).toBe(1000);
    expect(r2.next).toEqual({ start_line: 2, end_line: 2 });
  });

  it("gives out_of_range with the real line count for a start past the end, and clamps the end", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(41));
    const err = await failure(editor.read({ path: "a.txt:90" }));
    expect(err.code).toBe("out_of_range");
    expect(err.message).toContain("41 lines");
    expect((await editor.read({ path: "a.txt:40-90" })).end_line).toBe(41);
  });

  it("reads from the top when only end_line is given, never the whole file", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(5));
    const r = await editor.read({ path: "a.txt", end_line: 2 });
    expect([r.start_line, r.end_line, r.content]).toEqual([1, 2, "line 1\nline 2\n"]);
  });

  it("refuses a path position that disagrees with the fields, and a target with a range", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(5));
    expect((await failure(editor.read({ path: "a.txt:1", start_line: 3 }))).code).toBe("invalid_range");
    expect((await failure(editor.read({ path: "a.txt:ALL", end_line: 3 }))).code).toBe("invalid_range");
    expect((await editor.read({ path: "a.txt:2-3", start_line: 2, end_line: 3 })).end_line).toBe(3);
    const both = await failure(editor.read({ path: "a.txt:1", target: { kind: "marker", text: "line 3" } }));
    expect(both.code).toBe("invalid_argument");
  });

  it("reads :ALL of an empty file as zero lines", async () => {
    const { editor, file } = setup();
    file("e.txt", "");
    expect(await editor.read({ path: "e.txt:ALL" })).toMatchObject({
      total_lines: 0,
      content: "",
      next: null,
    });
    expect((await failure(editor.read({ path: "e.txt:1" }))).code).toBe("out_of_range");
  });

  it("refuses zero, negative and reversed ranges as invalid_range", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(5));
    for (const path of ["a.txt:0", "a.txt:-2", "a.txt:4-2", "a.txt:1-0"]) {
      expect((await failure(editor.read({ path }))).code).toBe("invalid_range");
    }
  });

  it("refuses binary and UTF-16 files and missing files with typed errors", async () => {
    const { editor, file } = setup();
    file("bin.dat", Buffer.from([1, 2, 0, 3]));
    file("u16.txt", Buffer.from("\uFEFFhi", "utf16le"));
    expect((await failure(editor.read({ path: "bin.dat" }))).code).toBe("binary_file");
    expect((await failure(editor.read({ path: "u16.txt" }))).code).toBe("unsupported_encoding");
    expect((await failure(editor.read({ path: "nope.txt" }))).code).toBe("not_found");
  });

  it("refuses a file over maxFileBytes as too_large", async () => {
    const { editor, file } = setup({ maxFileBytes: 100 });
    file("big.txt", "x".repeat(101));
    expect((await failure(editor.read({ path: "big.txt" }))).code).toBe("too_large");
  });

  it("resolves marker, function and tag targets to ranges", async () => {
    const { editor, file } = setup();
    file(
      "m.ts",
      [
        "import x from 'y';",
        "",
        "export function add(a: number, b: number) {",
        "  if (a) {",
        "    return a + b;",
        "  }",
        "  return b;",
        "}",
        "// END",
      ].join("\n"),
    );
    const marker = await editor.read({ path: "m.ts", target: { kind: "marker", text: "END" } });
    expect([marker.start_line, marker.end_line]).toEqual([9, 9]);
    const byName = await editor.read({ path: "m.ts", target: { kind: "function", name: "add" } });
    expect([byName.start_line, byName.end_line]).toEqual([3, 8]);
    const byLine = await editor.read({ path: "m.ts", target: { kind: "function", line: 5 } });
    expect([byLine.start_line, byLine.end_line]).toEqual([3, 8]);
    file("p.html", "<html>\n<body>\n  <div id=a>\n    <p>hi</p>\n  </div>\n</body>\n</html>\n");
    const tag = await editor.read({ path: "p.html", target: { kind: "tag", line: 4 } });
    expect([tag.start_line, tag.end_line]).toEqual([4, 4]);
    const div = await editor.read({ path: "p.html", target: { kind: "tag", name: "div" }, context: 1 });
    expect([div.start_line, div.end_line]).toEqual([2, 6]);
    const missing = await failure(editor.read({ path: "m.ts", target: { kind: "function", name: "nope" } }));
    expect(missing.code).toBe("not_found");
  });

  it("refuses unknown keys and a bad target kind", async () => {
    const { editor, file } = setup();
    file("a.txt", "x\n");
    const bad = await failure(editor.read({ path: "a.txt", start: 1 } as never));
    expect(bad.code).toBe("invalid_argument");
    expect(bad.message).toContain("start_line");
    const kind = await failure(editor.read({ path: "a.txt", target: { kind: "class" } } as never));
    expect(kind.code).toBe("invalid_argument");
  });
});
