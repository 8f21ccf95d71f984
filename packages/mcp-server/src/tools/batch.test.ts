import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { editHarness } from "../testing.test-helpers.js";

const FILE = "a\nb\nc\nd\ne\n";

function setup() {
  return editHarness(FILE);
}

describe("be-batch", () => {
  it("applies a range replace, an insert and a text replace together, with one diff and a chip per removal", async () => {
    const { file, call, chips } = setup();
    const { text, r } = await call("be-batch", {
      path: "f.txt",
      edits: [
        { start_line: 2, content: "B" },
        { after_line: 3, content: "c2" },
        { old: "e\n", content: "E\n" },
      ],
    });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("a\nB\nc\nc2\nd\nE\n");
    expect(text).toMatch(/^batch .*f\.txt: \+3 -2, 6 lines, hash [0-9a-f]{64} \(written\)/);
    expect(text.match(/^@@/gm)).toHaveLength(1);
    const ids = [...text.matchAll(/chip:\/\/([0-9a-f]+)/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);
    expect(chips.list().map((c) => c.id)).toEqual(expect.arrayContaining(ids));
  });

  it("changes nothing when one edit fails, and names that edit", async () => {
    const { file, call } = setup();
    const { text, r } = await call("be-batch", {
      path: "f.txt",
      edits: [
        { start_line: 1, content: "A" },
        { old: "zzz", content: "y" },
      ],
    });
    expect(r.isError).toBe(true);
    expect(text).toMatch(/^be_no_match: edit 2: `old` text was not found/);
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });

  it("refuses an unknown key inside an edit by name, and a JSON string instead of a list", async () => {
    const { call } = setup();
    const bad = await call("be-batch", { path: "f.txt", edits: [{ line: 2, content: "x" }] });
    expect(bad.r.isError).toBe(true);
    expect(bad.text).toMatch(/^cave_invalid_arguments: be-batch: .*line/);
    const str = await call("be-batch", { path: "f.txt", edits: '[{"start_line":1,"content":"x"}]' });
    expect(str.r.isError).toBe(true);
  });

  it("previews without writing, and follows range_hash anchors when the file moved", async () => {
    const { file, call, editor } = setup();
    const pre = await call("be-batch", {
      path: "f.txt",
      preview: true,
      edits: [{ start_line: 1, content: "A" }],
    });
    expect(pre.text).toContain("(preview, nothing written)");
    expect(readFileSync(file, "utf8")).toBe(FILE);
    const r = await editor.read({ path: "f.txt:4" });
    writeFileSync(file, `top\n${FILE}`);
    const moved = await call("be-batch", {
      path: "f.txt",
      expected_hash: r.hash,
      edits: [{ start_line: 4, content: "D", range_hash: r.range_hash }],
    });
    expect(moved.r.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("top\na\nb\nc\nD\ne\n");
  });
});
