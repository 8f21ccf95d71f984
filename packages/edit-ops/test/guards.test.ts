// Preview, expected_hash and warnings: what every mutating operation promises besides its edit.

import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { EditResult } from "../src/index.js";
import { failure, lines, setup } from "./helpers.js";

const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("preview and expected_hash", () => {
  it("preview computes the diff and the new hash but writes nothing", async () => {
    const { editor, file, bytes, journalDir } = setup();
    file("a.txt", lines(3));
    const before = bytes("a.txt");
    const r = await editor.replace({ path: "a.txt:2", content: "X", preview: true });
    expect(r).toMatchObject({ preview: true, written: false, changed: true });
    expect(r.diff).toContain("+X");
    expect(bytes("a.txt")).toEqual(before);
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
    expect(journalDir).toBeTruthy();
  });

  it("refuses an edit when the file's hash differs, and accepts the hash read returned", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", lines(3));
    const { hash } = await editor.read({ path: "a.txt" });
    file("a.txt", lines(4));
    const before = bytes("a.txt");
    const err = await failure(editor.replace({ path: "a.txt:1", content: "x", expected_hash: hash }));
    expect(err.code).toBe("conflict");
    expect(bytes("a.txt")).toEqual(before);
    const fresh = await editor.read({ path: "a.txt" });
    await editor.replace({ path: "a.txt:1", content: "x", expected_hash: fresh.hash });
    await editor.replace({
      path: "a.txt:2",
      content: "y",
      expected_hash: (await editor.read({ path: "a.txt" })).hash.slice(0, 16),
    });
    expect(
      (await failure(editor.replace({ path: "a.txt:1", content: "x", expected_hash: "nothex!" }))).code,
    ).toBe("invalid_argument");
  });
});

describe("preview of every operation", () => {
  it("returns what the real edit returns, and leaves the bytes, the journal and the directory alone", async () => {
    const { editor, file, bytes, root, journalDir } = setup();
    const start = "a\r\nb\r\nc\r\n";
    const ops: Array<[string, (preview: boolean) => Promise<EditResult>]> = [
      ["write", (preview) => editor.write({ path: "f.txt", content: "x\ny\n", preview })],
      ["insert", (preview) => editor.insert({ path: "f.txt:0", content: "top", preview })],
      ["replace", (preview) => editor.replace({ path: "f.txt", old: "b", new: "B", preview })],
      ["delete", (preview) => editor.delete({ path: "f.txt:ALL", preview })],
      [
        "batch",
        (preview) =>
          editor.batch({
            path: "f.txt",
            edits: [
              { start_line: 3, content: "C" },
              { after_line: 0, content: "0" },
            ],
            preview,
          }),
      ],
    ];
    for (const [name, run] of ops) {
      file("f.txt", start);
      const preview = await run(true);
      expect(bytes("f.txt").toString(), name).toBe(start);
      expect(
        readdirSync(journalDir, { recursive: true }).filter((n) => String(n).endsWith(".edit")),
        name,
      ).toEqual([]);
      expect(readdirSync(root), name).toEqual(["f.txt"]);
      const real = await run(false);
      expect({ ...preview, preview: false, written: true }, name).toEqual(real);
      expect(real.hash, name).toBe(sha256(bytes("f.txt")));
      const undo = await editor.undo({ path: "f.txt", preview: true });
      expect(undo.hash, name).toBe(sha256(Buffer.from(start)));
      expect(real.hash, name).toBe(sha256(bytes("f.txt")));
      await editor.undo({ path: "f.txt" });
      expect(bytes("f.txt").toString(), name).toBe(start);
    }
  });

  it("previews the creation of a file without creating it or its directories", async () => {
    const { editor, root } = setup();
    const r = await editor.write({ path: "new/dir/f.txt", content: "x\n", create_dirs: true, preview: true });
    expect(r).toMatchObject({ created: true, written: false, preview: true, total_lines: 1 });
    expect(r.diff).toContain("+x");
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("warnings", () => {
  it("warns when an edit unbalances brackets that were balanced, and not otherwise", async () => {
    const { editor, file } = setup();
    file("a.ts", "function f() {\n  return g(1);\n}\n");
    const bad = await editor.replace({ path: "a.ts:2", content: "  return g(1;", preview: true });
    expect(bad.warnings).toEqual([expect.stringContaining("parentheses")]);
    const fine = await editor.replace({ path: "a.ts:2", content: "  return h(2);", preview: true });
    expect(fine.warnings).toEqual([]);
    file("b.ts", "f(\n");
    const already = await editor.replace({ path: "b.ts:1", content: "f((", preview: true });
    expect(already.warnings).toEqual([]);
    file("notes.md", "text\n");
    const prose = await editor.insert({ path: "notes.md", after_line: 1, content: "1) item", preview: true });
    expect(prose.warnings).toEqual([]);
  });

  it("judges tags on the whole file, so a tag split over lines is counted the same before and after", async () => {
    const { editor, file } = setup();
    file("v.html", '<div\n  class="a">\n  x\n</div>\n');
    const cut = await editor.delete({ path: "v.html:1" });
    expect(cut.warnings).toEqual([expect.stringContaining("element tags")]);
    // The file is now unbalanced, so a further edit that adds an element must not warn.
    const more = await editor.insert({ path: "v.html", after_line: 2, content: "<p>" });
    expect(more.warnings).toEqual([]);
  });

  it("warns about element tags in markup files", async () => {
    const { editor, file } = setup();
    file("p.html", "<div>\n  <p>x</p>\n</div>\n");
    const r = await editor.delete({ path: "p.html:3", preview: true });
    expect(r.warnings.join()).toContain("element tags");
  });
});

describe("diff size", () => {
  it("cuts a long diff at maxDiffBytes with a marker that states the full counts", async () => {
    const { editor, file, bytes } = setup({ maxDiffBytes: 300 });
    file("a.txt", lines(200));
    const content = lines(200, (i) => `new ${i}`);
    const r = await editor.replace({ path: "a.txt:ALL", content });
    expect(bytes("a.txt").toString()).toBe(content);
    expect(r).toMatchObject({ lines_added: 200, lines_removed: 200 });
    const [kept, marker] = [r.diff.slice(0, r.diff.lastIndexOf("... diff cut")), r.diff.split("\n").at(-2)];
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(300);
    expect(kept.endsWith("\n")).toBe(true);
    expect(marker).toMatch(/^\.\.\. diff cut at 300 of \d+ bytes \(\+200 -200 lines in all\)/);
  });

  it("shows the head of a changed line longer than the whole diff budget", async () => {
    const { editor, file } = setup({ maxDiffBytes: 1000 });
    file("min.js", `var a=${"x".repeat(5000)};\n`);
    const r = await editor.replace({ path: "min.js", old: "var a=", new: "var b=" });
    expect(r.diff).toContain("-var a=xxx");
    expect(r.diff).toContain("+var b=xxx");
    expect(r.diff).toContain("more characters]");
    expect(r.diff).toContain("... diff cut at 1000 of");
    expect(Buffer.byteLength(r.diff)).toBeLessThan(1200);
  });
});
