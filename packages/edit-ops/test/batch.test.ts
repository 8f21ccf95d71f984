import { applyPatch } from "diff";
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

  it("applies adjacent ranges, and refuses an insert that falls inside a replaced range", async () => {
    const { editor, file, text, bytes } = setup();
    file("a.txt", lines(6));
    await editor.batch({
      path: "a.txt",
      edits: [
        { start_line: 4, end_line: 5, content: "y" },
        { start_line: 2, end_line: 3, content: "x" },
      ],
    });
    expect(text("a.txt")).toBe("line 1\nx\ny\nline 6\n");
    const before = bytes("a.txt");
    const inside = await failure(
      editor.batch({
        path: "a.txt",
        edits: [
          { start_line: 1, end_line: 3, content: "z" },
          { after_line: 2, content: "w" },
        ],
      }),
    );
    expect(inside.code).toBe("invalid_range");
    expect(bytes("a.txt").equals(before)).toBe(true);
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

describe("batch diffs", () => {
  it("gives a diff that turns the old text into the new when an insert and a replacement share a point", async () => {
    const { editor, file, text } = setup();
    const before = lines(6);
    file("a.txt", before);
    const r = await editor.batch({
      path: "a.txt",
      edits: [
        { start_line: 2, end_line: 4, content: "x" },
        { after_line: 1, content: "y" },
      ],
    });
    expect(text("a.txt")).toBe("line 1\ny\nx\nline 5\nline 6\n");
    expect(r.diff).toContain("@@ -1,6 +1,5 @@");
    expect(applyPatch(before, r.diff)).toBe(text("a.txt"));
    expect(r).toMatchObject({ lines_added: 2, lines_removed: 3 });
  });

  it("ends the diff window at the right line when a later edit deletes lines near the end", async () => {
    const { editor, file, text } = setup();
    const before = "a\nb\nc\nd\ne";
    file("a.txt", before);
    const r = await editor.batch({
      path: "a.txt",
      edits: [
        { start_line: 1, content: "A" },
        { start_line: 3, end_line: 4, content: "" },
      ],
    });
    expect(text("a.txt")).toBe("A\nb\ne");
    expect(applyPatch(before, r.diff)).toBe("A\nb\ne");
  });
});
