import { describe, expect, it } from "vitest";
import { failure, lines, setup } from "./helpers.js";

describe("batch", () => {
  it("applies edits against one snapshot, remapping later line numbers", async () => {
    const { editor, file, text, abs } = setup();
    file("a.txt", lines(6));
    const r = await editor.batch({
      path: "a.txt",
      edits: [
        { start_line: 5, content: "five" },
        { after_line: 0, content: "top\ntop2" },
        { start_line: 2, end_line: 3, content: "" },
        { old: "line 6", new: "six" },
      ],
    });
    expect(text("a.txt")).toBe("top\ntop2\nline 1\nline 4\nfive\nsix\n");
    expect(r.ranges).toEqual([
      { start_line: 5, end_line: 5 },
      { start_line: 1, end_line: 2 },
      { start_line: 4, end_line: 3 },
      { start_line: 6, end_line: 6 },
    ]);
    expect(r.removed.map((x) => x.origin)).toEqual([
      { path: abs("a.txt"), start_line: 5, end_line: 5 },
      { path: abs("a.txt"), start_line: 2, end_line: 3 },
      { path: abs("a.txt"), start_line: 6, end_line: 6 },
    ]);
  });

  it("is all-or-nothing: one bad edit changes nothing and is named", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", lines(3));
    const before = bytes("a.txt");
    const err = await failure(
      editor.batch({
        path: "a.txt",
        edits: [
          { start_line: 1, content: "ok" },
          { start_line: 9, content: "bad" },
        ],
      }),
    );
    expect(err.code).toBe("out_of_range");
    expect(err.message).toMatch(/^edit 2: /);
    const overlap = await failure(
      editor.batch({
        path: "a.txt",
        edits: [
          { start_line: 1, end_line: 2, content: "a" },
          { start_line: 2, content: "b" },
        ],
      }),
    );
    expect(overlap.code).toBe("invalid_range");
    expect(overlap.message).toContain("overlap");
    expect(bytes("a.txt")).toEqual(before);
  });

  it("refuses a JSON string, an empty list and edits without a position", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(3));
    const str = await failure(
      editor.batch({ path: "a.txt", edits: '[{"start_line":1,"content":"x"}]' as never }),
    );
    expect(str.code).toBe("invalid_argument");
    expect(str.message).toContain("JSON string");
    expect((await failure(editor.batch({ path: "a.txt", edits: [] }))).code).toBe("invalid_argument");
    expect((await failure(editor.batch({ path: "a.txt", edits: [{ content: "x" }] }))).code).toBe(
      "invalid_range",
    );
    expect(
      (await failure(editor.batch({ path: "a.txt", edits: [{ line: 1, content: "x" } as never] }))).code,
    ).toBe("invalid_argument");
  });

  it("keeps two inserts at one point in the order given", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "a\nb\n");
    await editor.batch({
      path: "a.txt",
      edits: [
        { after_line: 1, content: "1" },
        { after_line: 1, content: "2" },
      ],
    });
    expect(text("a.txt")).toBe("a\n1\n2\nb\n");
  });
});
