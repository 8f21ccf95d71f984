import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failure, setup } from "./helpers.js";

describe("bytes on disk", () => {
  it("keeps each untouched line's ending in a mixed file; new lines take the dominant one", async () => {
    const { editor, file, text } = setup();
    file("m.txt", "a\r\nb\nc\r\nd\r\n");
    await editor.insert({ path: "m.txt", after_line: 2, content: "new" });
    expect(text("m.txt")).toBe("a\r\nb\nnew\r\nc\r\nd\r\n");
    await editor.replace({ path: "m.txt:2", content: "B" });
    expect(text("m.txt")).toBe("a\r\nB\nnew\r\nc\r\nd\r\n");
  });

  it("keeps CRLF endings on a CRLF file through insert, replace and delete", async () => {
    const { editor, file, text } = setup();
    file("c.txt", "one\r\ntwo\r\nthree\r\n");
    await editor.insert({ path: "c.txt", after_line: 3, content: "four\nfive\n" });
    await editor.replace({ path: "c.txt", old: "two\nthree", new: "2\n3" });
    await editor.delete({ path: "c.txt:1" });
    expect(text("c.txt")).toBe("2\r\n3\r\nfour\r\nfive\r\n");
  });

  it("writes CRLF content into an LF file as LF and says so", async () => {
    const { editor, file, text } = setup();
    file("l.txt", "a\nb\n");
    const r = await editor.insert({ path: "l.txt", after_line: 1, content: "x\r\ny\r\n" });
    expect(text("l.txt")).toBe("a\nx\ny\nb\n");
    expect(r.warnings).toEqual([expect.stringContaining("CRLF")]);
  });

  it("keeps CRLF content CRLF in a file with no line ending of its own to follow", async () => {
    const { editor, file, text } = setup();
    file("empty.bat", "");
    const r = await editor.insert({ path: "empty.bat", after_line: 0, content: "@echo off\r\necho hi\r\n" });
    expect(text("empty.bat")).toBe("@echo off\r\necho hi\r\n");
    expect(r.warnings).toEqual([]);
    file("one.bat", "@echo off");
    await editor.insert({ path: "one.bat", after_line: 1, content: "echo hi\r\n" });
    expect(text("one.bat")).toBe("@echo off\r\necho hi");
    file("lf.txt", "a");
    await editor.insert({ path: "lf.txt", after_line: 1, content: "b\n" });
    expect(text("lf.txt")).toBe("a\nb");
  });

  it("keeps a UTF-8 BOM", async () => {
    const { editor, file, bytes } = setup();
    file("bom.txt", "\uFEFFfirst\nsecond\n");
    await editor.insert({ path: "bom.txt", after_line: 0, content: "zeroth" });
    await editor.replace({ path: "bom.txt:2", content: "FIRST" });
    expect(bytes("bom.txt").toString("utf8")).toBe("\uFEFFzeroth\nFIRST\nsecond\n");
    expect((await editor.read({ path: "bom.txt:1" })).numbered).toBe("1\tzeroth");
  });

  it("keeps the executable bit and other mode bits", async () => {
    const { editor, file, abs } = setup();
    file("run.sh", "#!/bin/sh\necho hi\n");
    chmodSync(abs("run.sh"), 0o751);
    await editor.replace({ path: "run.sh:2", content: "echo bye" });
    expect(statSync(abs("run.sh")).mode & 0o777).toBe(0o751);
    expect(readFileSync(abs("run.sh"), "utf8")).toBe("#!/bin/sh\necho bye\n");
  });

  it("keeps the owner when the process may set it, and its own otherwise", async () => {
    const { editor, file, abs } = setup();
    file("owned.txt", "a\n");
    if (process.getuid?.() === 0) chownSync(abs("owned.txt"), 12345, 23456);
    const before = statSync(abs("owned.txt"));
    await editor.replace({ path: "owned.txt:1", content: "b" });
    const after = statSync(abs("owned.txt"));
    expect([after.uid, after.gid]).toEqual([before.uid, before.gid]);
    expect(after.ino).not.toBe(before.ino);
  });

  it("keeps setuid and setgid bits, also on a file of another owner (chown would clear them)", async () => {
    const { editor, file, abs } = setup();
    file("suid.sh", "#!/bin/sh\necho hi\n");
    // As root the file belongs to someone else, so the write must give it back with chown.
    if (process.getuid?.() === 0) chownSync(abs("suid.sh"), 12345, 23456);
    chmodSync(abs("suid.sh"), 0o6755);
    const before = statSync(abs("suid.sh"));
    await editor.replace({ path: "suid.sh:2", content: "echo bye" });
    const after = statSync(abs("suid.sh"));
    expect((after.mode & 0o7777).toString(8)).toBe((before.mode & 0o7777).toString(8));
    expect([after.uid, after.gid]).toEqual([before.uid, before.gid]);
  });

  it("edits through a symlink inside the roots: the target changes, the link stays a link", async () => {
    const { editor, file, abs } = setup();
    file("target.txt", "a\nb\n");
    symlinkSync(abs("target.txt"), abs("link.txt"));
    const r = await editor.replace({ path: "link.txt:1", content: "A" });
    expect(lstatSync(abs("link.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(abs("target.txt"), "utf8")).toBe("A\nb\n");
    expect(r.path).toBe(abs("link.txt"));
  });

  it("warns that an atomic write splits a hard link, and leaves the other name's bytes intact", async () => {
    const { editor, file, abs } = setup();
    file("h.txt", "a\n");
    linkSync(abs("h.txt"), abs("h2.txt"));
    const r = await editor.replace({ path: "h.txt:1", content: "b" });
    expect(r.warnings.join()).toContain("hard links");
    expect(readFileSync(abs("h.txt"), "utf8")).toBe("b\n");
    expect(readFileSync(abs("h2.txt"), "utf8")).toBe("a\n");
  });

  it("leaves no temp files behind and removes stale ones of ours", async () => {
    const { editor, file, root } = setup();
    file("a.txt", "a\n");
    const stale = join(root, ".a.txt.0123456789abcdef.caveman-tmp");
    const foreign = join(root, ".a.txt.notours.tmp");
    writeFileSync(stale, "half-written");
    writeFileSync(foreign, "someone else's");
    const old = new Date(Date.now() - 3600_000);
    utimesSync(stale, old, old);
    await editor.replace({ path: "a.txt:1", content: "b" });
    expect(readdirSync(root).sort()).toEqual([".a.txt.notours.tmp", "a.txt"]);
  });

  it("keeps failed operations byte-identical for malformed input", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", "keep\n");
    const before = bytes("a.txt");
    const bad: unknown[] = [
      { path: "a.txt", after_line: "x", content: "y" },
      { path: "a.txt", after_line: 1.5, content: "y" },
      { path: "a.txt", after_line: 1, content: 42 },
      { path: "a.txt", after_line: 1 },
      { path: 7, after_line: 1, content: "y" },
      null,
      "a.txt:1",
    ];
    for (const input of bad) {
      const err = await failure(editor.insert(input as never));
      expect(["invalid_argument", "invalid_range"]).toContain(err.code);
    }
    expect(bytes("a.txt")).toEqual(before);
  });

  it("refuses content that is not text (NUL, unpaired surrogates) without touching the file", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", "keep\n");
    for (const content of ["a\0b", "bad \uD800 half", "\uDC00"]) {
      expect((await failure(editor.insert({ path: "a.txt", after_line: 1, content }))).code).toBe(
        "invalid_argument",
      );
      expect((await failure(editor.write({ path: "a.txt", content }))).code).toBe("invalid_argument");
    }
    await editor.insert({ path: "a.txt", after_line: 1, content: "pair 😀 ok" });
    expect(bytes("a.txt").toString()).toBe("keep\npair 😀 ok\n");
  });

  it("edits a file whose name is near the file-system limit (the temp name must still fit)", async () => {
    const { editor, file, root } = setup();
    const name = `${"é".repeat(120)}.txt`; // 244 bytes of a 255-byte limit
    file(name, "a\n");
    await editor.replace({ path: `${name}:1`, content: "b" });
    expect(readFileSync(join(root, name), "utf8")).toBe("b\n");
    expect(readdirSync(root)).toEqual([name]);
    await editor.undo({ path: name });
    expect(readFileSync(join(root, name), "utf8")).toBe("a\n");
  });

  it("refuses an edit that would grow the file past maxFileBytes, writing nothing", async () => {
    const { editor, file, bytes } = setup({ maxFileBytes: 100 });
    file("a.txt", `${"x".repeat(90)}\n`);
    const before = bytes("a.txt");
    const err = await failure(editor.insert({ path: "a.txt", after_line: 1, content: "y".repeat(20) }));
    expect(err.code).toBe("too_large");
    expect(err.message).toContain("100-byte limit");
    expect(bytes("a.txt").equals(before)).toBe(true);
    expect((await editor.read({ path: "a.txt" })).total_lines).toBe(1);
  });

  it("refuses oversized content as too_large", async () => {
    const { editor, file, bytes } = setup({ maxFileBytes: 1000 });
    file("a.txt", "x\n");
    const edits = Array.from({ length: 3 }, () => ({ after_line: 1, content: "y".repeat(400) }));
    const batch = await failure(editor.batch({ path: "a.txt", edits }));
    expect(batch.code).toBe("too_large");
    expect(batch.message).toContain("1200 bytes");
    expect(bytes("a.txt").toString()).toBe("x\n");
    expect(
      (await failure(editor.insert({ path: "a.txt", after_line: 1, content: "y".repeat(2000) }))).code,
    ).toBe("too_large");
  });
});
