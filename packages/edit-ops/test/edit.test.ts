import { readFileSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { failure, lines, setup } from "./helpers.js";

describe("write", () => {
  it("creates a file, optionally with its parent directories", async () => {
    const { editor, text, abs } = setup();
    const r = await editor.write({ path: "new.txt", content: "hello\n" });
    expect(r).toMatchObject({ created: true, written: true, removed: [], total_lines: 1 });
    expect(text("new.txt")).toBe("hello\n");
    const noDir = await failure(editor.write({ path: "a/b/c.txt", content: "x" }));
    expect(noDir.code).toBe("not_found");
    expect(noDir.message).toContain("create_dirs");
    await editor.write({ path: "a/b/c.txt", content: "x", create_dirs: true });
    expect(readFileSync(abs("a/b/c.txt"), "utf8")).toBe("x");
  });

  it("returns the overwritten content with its origin", async () => {
    const { editor, file, text, abs } = setup();
    file("a.txt", "old 1\nold 2\n");
    const r = await editor.write({ path: "a.txt", content: "new\n" });
    expect(r.created).toBe(false);
    expect(r.removed).toEqual([
      { text: "old 1\nold 2\n", origin: { path: abs("a.txt"), start_line: 1, end_line: 2 } },
    ]);
    expect(text("a.txt")).toBe("new\n");
    expect(r.diff).toContain("-old 1");
  });

  it("keeps a CRLF file CRLF and its BOM when an agent writes LF text", async () => {
    const { editor, file, bytes } = setup();
    file("w.txt", "\uFEFFa\r\nb\r\n");
    const r = await editor.write({ path: "w.txt", content: "c\nd\n" });
    expect(bytes("w.txt").toString("utf8")).toBe("\uFEFFc\r\nd\r\n");
    expect(r.warnings.join()).toContain("CRLF");
    await editor.write({ path: "w.txt", content: "e\n", keep_format: false });
    expect(bytes("w.txt").toString("utf8")).toBe("e\n");
  });

  it("refuses to overwrite a binary file and a path with a line position", async () => {
    const { editor, file, bytes } = setup();
    file("b.bin", Buffer.from([0, 1, 2]));
    expect((await failure(editor.write({ path: "b.bin", content: "x" }))).code).toBe("binary_file");
    expect(bytes("b.bin")).toEqual(Buffer.from([0, 1, 2]));
    expect((await failure(editor.write({ path: "b.txt:3", content: "x" }))).code).toBe("invalid_argument");
  });

  it("reports no change and writes nothing when the content is identical", async () => {
    const { editor, file } = setup();
    file("same.txt", "x\n");
    const r = await editor.write({ path: "same.txt", content: "x\n" });
    expect(r).toMatchObject({ changed: false, written: false, diff: "", removed: [] });
  });
});

describe("insert", () => {
  it("inserts after line N, at the top with 0, and at the end with the line count", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "one\ntwo\n");
    await editor.insert({ path: "a.txt", after_line: 1, content: "one-and-a-half" });
    await editor.insert({ path: "a.txt:0", content: "zero\n" });
    const r = await editor.insert({ path: "a.txt", after_line: 4, content: "three\nfour\n" });
    expect(text("a.txt")).toBe("zero\none\none-and-a-half\ntwo\nthree\nfour\n");
    expect(r.ranges).toEqual([{ start_line: 5, end_line: 6 }]);
    expect(r).toMatchObject({ lines_added: 2, lines_removed: 0, removed: [] });
  });

  it("gives out_of_range past the end and invalid_range below zero, naming the line count", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", "one\ntwo\n");
    const before = bytes("a.txt");
    const past = await failure(editor.insert({ path: "a.txt", after_line: 3, content: "x" }));
    expect(past.code).toBe("out_of_range");
    expect(past.message).toContain("after_line 2");
    expect((await failure(editor.insert({ path: "a.txt", after_line: -1, content: "x" }))).code).toBe(
      "invalid_range",
    );
    expect((await failure(editor.insert({ path: "a.txt", content: "x" }))).code).toBe("invalid_range");
    expect(bytes("a.txt")).toEqual(before);
  });

  it("fills an empty file and follows the content's final newline there", async () => {
    const { editor, file, text } = setup();
    file("e.txt", "");
    await editor.insert({ path: "e.txt", after_line: 0, content: "a\nb\n" });
    expect(text("e.txt")).toBe("a\nb\n");
    file("f.txt", "");
    await editor.insert({ path: "f.txt", after_line: 0, content: "a" });
    expect(text("f.txt")).toBe("a");
  });

  it("keeps a missing final newline when appending", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "one\ntwo");
    await editor.insert({ path: "a.txt", after_line: 2, content: "three\n" });
    expect(text("a.txt")).toBe("one\ntwo\nthree");
  });
});

describe("replace", () => {
  it("replaces a line range and returns the replaced text with its origin", async () => {
    const { editor, file, text, abs } = setup();
    file("a.txt", lines(5));
    const r = await editor.replace({ path: "a.txt", start_line: 2, end_line: 4, content: "X\nY\n" });
    expect(text("a.txt")).toBe("line 1\nX\nY\nline 5\n");
    expect(r.removed).toEqual([
      { text: "line 2\nline 3\nline 4\n", origin: { path: abs("a.txt"), start_line: 2, end_line: 4 } },
    ]);
    expect(r.ranges).toEqual([{ start_line: 2, end_line: 3 }]);
    expect(r.total_lines).toBe(4);
    expect(r.diff).toMatch(/^--- a\/a.txt\n\+\+\+ b\/a.txt\n@@ -1,5 \+1,4 @@/);
  });

  it("replaces the single line and the last line of a file", async () => {
    const { editor, file, text } = setup();
    file("one.txt", "only");
    await editor.replace({ path: "one.txt:1", content: "changed" });
    expect(text("one.txt")).toBe("changed");
    file("last.txt", "a\nb\nc\n");
    await editor.replace({ path: "last.txt:3", content: "C" });
    expect(text("last.txt")).toBe("a\nb\nC\n");
  });

  it("replaces exact old text that occurs once, keeping the rest of its lines", async () => {
    const { editor, file, text } = setup();
    file("a.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const r = await editor.replace({ path: "a.ts", old: "b = 2;\nconst c", new: "b = 20;\nconst cc" });
    expect(text("a.ts")).toBe("const a = 1;\nconst b = 20;\nconst cc = 3;\n");
    expect(r.removed[0]).toMatchObject({ text: "b = 2;\nconst c", origin: { start_line: 2, end_line: 3 } });
  });

  it("gives ambiguous_match with the count and every line, and no_match with a hint", async () => {
    const { editor, file, bytes } = setup();
    file("a.ts", "x = 1;\ny = 2;\nx = 1;\n  z  =  3;\n");
    const before = bytes("a.ts");
    const amb = await failure(editor.replace({ path: "a.ts", old: "x = 1;", new: "x = 9;" }));
    expect(amb.code).toBe("ambiguous_match");
    expect(amb.details.match_lines).toEqual([1, 3]);
    expect(amb.message).toContain("2 times");
    const none = await failure(editor.replace({ path: "a.ts", old: "z = 3;", new: "" }));
    expect(none.code).toBe("no_match");
    expect(none.message).toContain("line 4, only whitespace differs");
    expect(bytes("a.ts")).toEqual(before);
  });

  it("checks a range's old text ignoring line-ending style and the final newline, showing the actual text", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "a\r\nb\r\nc\r\n");
    await editor.replace({ path: "a.txt:1-2", old: "a\nb\n", content: "A\nB" });
    expect(text("a.txt")).toBe("A\r\nB\r\nc\r\n");
    const err = await failure(editor.replace({ path: "a.txt:1-2", old: "a\nb", content: "z" }));
    expect(err.code).toBe("conflict");
    expect(err.message).toContain("A\nB");
    expect(text("a.txt")).toBe("A\r\nB\r\nc\r\n");
  });

  it("accepts an old check that keeps the final newline of a range ending in an empty line", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "a\nb\n\nc\n");
    await editor.replace({ path: "a.txt:1-3", old: "a\nb\n", content: "z" });
    expect(text("a.txt")).toBe("z\nc\n");
    file("b.txt", "a\nb\n\nc\n");
    const err = await failure(editor.replace({ path: "b.txt:1-3", old: "a\nb", content: "z" }));
    expect(err.code).toBe("conflict");
    expect(err.details.actual).toBe("a\nb\n");
    expect(text("b.txt")).toBe("a\nb\n\nc\n");
  });

  it("matches CRLF `old` text against an LF file and LF text against a CRLF file", async () => {
    const { editor, file, bytes } = setup();
    file("lf.txt", "a\nb\nc\n");
    await editor.replace({ path: "lf.txt", old: "a\r\nb\r\n", new: "x\r\n" });
    expect(bytes("lf.txt").toString()).toBe("x\nc\n");
    file("crlf.txt", "a\r\nb\r\nc\r\n");
    const r = await editor.replace({ path: "crlf.txt", old: "a\nb\n", new: "x\n" });
    expect(bytes("crlf.txt").toString()).toBe("x\r\nc\r\n");
    expect(r.removed[0]!.text).toBe("a\r\nb\r\n");
  });

  it("never turns a missing or misspelt position into a whole-file replace", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", lines(3));
    const before = bytes("a.txt");
    expect((await failure(editor.replace({ path: "a.txt", content: "x" }))).code).toBe("invalid_range");
    const typo = await failure(editor.replace({ path: "a.txt", start: 2, content: "x" } as never));
    expect(typo.code).toBe("invalid_argument");
    expect(typo.message).toContain('unknown key "start"');
    expect(bytes("a.txt")).toEqual(before);
  });

  it("shows the actual text when the old check of :ALL fails", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", "one\r\ntwo\r\n");
    const err = await failure(editor.replace({ path: "a.txt:ALL", old: "one\nthree", content: "x" }));
    expect(err.code).toBe("conflict");
    expect(err.message).toContain("one\ntwo");
    expect(bytes("a.txt").toString()).toBe("one\r\ntwo\r\n");
    await editor.delete({ path: "a.txt:ALL", old: "one\ntwo\n" });
    expect(bytes("a.txt").toString()).toBe("");
  });

  it("replaces everything with :ALL", async () => {
    const { editor, file, text } = setup();
    file("a.txt", lines(3));
    const r = await editor.replace({ path: "a.txt:ALL", content: "just this\n" });
    expect(text("a.txt")).toBe("just this\n");
    expect(r.removed[0]!.text).toBe(lines(3));
  });

  it("refuses ranges outside the file with the real line count", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(41));
    const past = await failure(editor.replace({ path: "a.txt:90", content: "x" }));
    expect(past.code).toBe("out_of_range");
    expect(past.message).toContain("41 lines");
    expect(past.details.total_lines).toBe(41);
    expect((await failure(editor.replace({ path: "a.txt:40-42", content: "x" }))).code).toBe("out_of_range");
    expect((await failure(editor.replace({ path: "a.txt:0", content: "x" }))).code).toBe("invalid_range");
    expect((await failure(editor.replace({ path: "a.txt", start_line: -1, content: "x" }))).code).toBe(
      "invalid_range",
    );
    expect((await failure(editor.replace({ path: "a.txt:5", start_line: 6, content: "x" }))).code).toBe(
      "invalid_range",
    );
    const endOnly = await failure(editor.replace({ path: "a.txt:5", end_line: 9, content: "x" }));
    expect(endOnly.code).toBe("invalid_range");
    const allAndEnd = await failure(editor.replace({ path: "a.txt:ALL", end_line: 9, content: "x" }));
    expect(allAndEnd.code).toBe("invalid_range");
    await editor.replace({ path: "a.txt:5", start_line: 5, end_line: 5, content: "agreed" });
  });

  it("works on unicode text", async () => {
    const { editor, file, text } = setup();
    file("u.txt", "héllo wörld\n日本語のテキスト\n😀 emoji\n");
    await editor.replace({ path: "u.txt", old: "日本語", new: "中文" });
    expect(text("u.txt")).toBe("héllo wörld\n中文のテキスト\n😀 emoji\n");
    const r = await editor.read({ path: "u.txt:3" });
    expect(r.numbered).toBe("3\t😀 emoji");
  });
});

describe("delete", () => {
  it("deletes a range and returns the text with its origin", async () => {
    const { editor, file, text, abs } = setup();
    file("a.txt", lines(4));
    const r = await editor.delete({ path: "a.txt:2-3" });
    expect(text("a.txt")).toBe("line 1\nline 4\n");
    expect(r.removed).toEqual([
      { text: "line 2\nline 3\n", origin: { path: abs("a.txt"), start_line: 2, end_line: 3 } },
    ]);
    expect(r.ranges).toEqual([{ start_line: 2, end_line: 1 }]);
    expect(r).toMatchObject({ lines_removed: 2, lines_added: 0 });
  });

  it("deletes ALL, and the last line without adding a final newline", async () => {
    const { editor, file, text } = setup();
    file("a.txt", lines(3));
    await editor.delete({ path: "a.txt:ALL" });
    expect(text("a.txt")).toBe("");
    file("b.txt", "a\nb");
    await editor.delete({ path: "b.txt:2" });
    expect(text("b.txt")).toBe("a");
  });

  it("refuses to delete without a position or past the end", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(3));
    expect((await failure(editor.delete({ path: "a.txt" }))).code).toBe("invalid_range");
    expect((await failure(editor.delete({ path: "a.txt:4" }))).code).toBe("out_of_range");
  });
});

describe("a file changed by someone else between two edits", () => {
  it("is edited as it is now, even at the same size", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "one\ntwo\nsix\n");
    await editor.replace({ path: "a.txt:1", content: "ONE" });
    // Another writer, same length: only the bytes tell the difference.
    file("a.txt", "ONE\nTWO\nsix\n");
    const r = await editor.replace({ path: "a.txt:3", content: "SIX" });
    expect(text("a.txt")).toBe("ONE\nTWO\nSIX\n");
    expect(r.removed[0]!.text).toBe("six\n");
    expect((await editor.read({ path: "a.txt:2" })).content).toBe("TWO\n");
  });
});

describe("a kept file replaced behind the editor's back", () => {
  it("is edited as it is now when size and mtime are the same as before", async () => {
    const { editor, file, text, abs } = setup();
    file("a.txt", "one\ntwo\nsix\n");
    await editor.replace({ path: "a.txt:1", content: "ONE" });
    const { mtime } = statSync(abs("a.txt"));
    file("a.txt", "ONE\nTWO\nsix\n");
    utimesSync(abs("a.txt"), mtime, mtime);
    await editor.replace({ path: "a.txt", old: "six", new: "SIX" });
    expect(text("a.txt")).toBe("ONE\nTWO\nSIX\n");
  });

  it("is refused when swapped for a symlink to identical bytes outside the roots", async () => {
    const { editor, file, abs } = setup();
    const outside = join(tempDir("edit-ops-outside-"), "o.txt");
    file("a.txt", "one\n");
    await editor.replace({ path: "a.txt:1", content: "ONE" });
    writeFileSync(outside, "ONE\n");
    unlinkSync(abs("a.txt"));
    symlinkSync(outside, abs("a.txt"));
    const err = await failure(editor.replace({ path: "a.txt:1", content: "x" }));
    expect(err.code).toBe("outside_roots");
    expect(readFileSync(outside, "utf8")).toBe("ONE\n");
  });
});

describe("exact text on a file this editor wrote before", () => {
  it("matches as on a fresh read, and a non-ASCII needle never matches ASCII bytes", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "alpha\nbeta\ngamma\n");
    await editor.replace({ path: "a.txt:1", content: "ALPHA" });
    // U+017F's low byte is 0x7F: a byte search in the wrong encoding would find it in ASCII text.
    file("b.txt", "x\u007fy\n");
    await editor.replace({ path: "b.txt:1", content: "x\u007fy" });
    expect((await failure(editor.replace({ path: "b.txt", old: "x\u017fy", new: "z" }))).code).toBe(
      "no_match",
    );
    const r = await editor.replace({ path: "a.txt", old: "beta\ngam", new: "B\nG" });
    expect(text("a.txt")).toBe("ALPHA\nB\nGma\n");
    expect(r.removed[0]!.text).toBe("beta\ngam");
    const twice = await failure(editor.replace({ path: "a.txt", old: "A", new: "a" }));
    expect(twice.code).toBe("ambiguous_match");
  });

  it("keeps CRLF files on the text path", async () => {
    const { editor, file, bytes } = setup();
    file("c.txt", "one\r\ntwo\r\n");
    await editor.replace({ path: "c.txt:1", content: "ONE" });
    await editor.replace({ path: "c.txt", old: "ONE\ntwo", new: "1\n2" });
    expect(bytes("c.txt").toString()).toBe("1\r\n2\r\n");
  });
});
