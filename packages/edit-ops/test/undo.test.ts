import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditor } from "../src/index.js";
import { failure, lines, setup } from "./helpers.js";

describe("undo", () => {
  it("walks back a sequence of edits to the original bytes", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", "a\r\nb\nc");
    const original = bytes("a.txt");
    await editor.insert({ path: "a.txt", after_line: 3, content: "d" });
    await editor.replace({ path: "a.txt", old: "b", new: "B" });
    await editor.delete({ path: "a.txt:1" });
    await editor.batch({
      path: "a.txt",
      edits: [
        { start_line: 1, content: "x" },
        { after_line: 3, content: "y" },
      ],
    });
    for (let i = 0; i < 4; i++) await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt")).toEqual(original);
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
  });

  it("returns what the undo removed, with a diff", async () => {
    const { editor, file, abs } = setup();
    file("a.txt", lines(3));
    await editor.replace({ path: "a.txt:2", content: "TWO" });
    const r = await editor.undo({ path: "a.txt" });
    expect(r.removed).toEqual([
      { text: "TWO\n", origin: { path: abs("a.txt"), start_line: 2, end_line: 2 } },
    ]);
    expect(r.diff).toContain("-TWO\n+line 2");
  });

  it("refuses with conflict after an outside change and writes nothing", async () => {
    const { editor, file, abs, bytes } = setup();
    file("a.txt", lines(3));
    await editor.replace({ path: "a.txt:1", content: "edited" });
    writeFileSync(abs("a.txt"), "someone else\n");
    const err = await failure(editor.undo({ path: "a.txt" }));
    expect(err.code).toBe("conflict");
    expect(bytes("a.txt").toString()).toBe("someone else\n");
  });

  it("works after a restart (a new editor on the same journal directory)", async () => {
    const { editor, file, bytes, root, journalDir } = setup();
    file("a.txt", lines(3));
    const original = bytes("a.txt");
    await editor.replace({ path: "a.txt:2", content: "changed" });
    const restarted = createEditor({ roots: [root], journalDir });
    await restarted.undo({ path: "a.txt" });
    expect(bytes("a.txt")).toEqual(original);
  });

  it("deletes a file the edit created, only if untouched since", async () => {
    const { editor, abs } = setup();
    await editor.write({ path: "made.txt", content: "x\n" });
    const r = await editor.undo({ path: "made.txt" });
    expect(r.deleted).toBe(true);
    expect(existsSync(abs("made.txt"))).toBe(false);
  });

  it("restores an overwritten file and keeps its mode", async () => {
    const { editor, file, abs, bytes } = setup();
    file("x.sh", "old\n");
    const { chmodSync } = await import("node:fs");
    chmodSync(abs("x.sh"), 0o755);
    await editor.write({ path: "x.sh", content: "new\n" });
    await editor.undo({ path: "x.sh" });
    expect(bytes("x.sh").toString()).toBe("old\n");
    expect(statSync(abs("x.sh")).mode & 0o777).toBe(0o755);
  });

  it("previews an undo without writing or dropping the entry", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    const r = await editor.undo({ path: "a.txt", preview: true });
    expect(r).toMatchObject({ preview: true, written: false });
    expect(bytes("a.txt").toString()).toBe("b\n");
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("a\n");
  });

  it("keeps a bounded journal in private files", async () => {
    const { file, root, journalDir } = setup();
    const editor = createEditor({ roots: [root], journalDir, journalDepth: 3 });
    file("a.txt", "0\n");
    for (let i = 1; i <= 5; i++) await editor.replace({ path: "a.txt:1", content: String(i) });
    const [dir] = readdirSync(journalDir);
    const entries = readdirSync(join(journalDir, dir!)).filter((n) => n.endsWith(".edit"));
    expect(entries).toHaveLength(3);
    expect(statSync(join(journalDir, dir!)).mode & 0o777).toBe(0o700);
    expect(statSync(join(journalDir, dir!, entries[0]!)).mode & 0o777).toBe(0o600);
    for (let i = 0; i < 3; i++) await editor.undo({ path: "a.txt" });
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
  });

  it("stores a one-line edit and a spread-out batch of a large file as small journal entries", async () => {
    const { editor, file, journalDir, bytes } = setup();
    file("big.txt", lines(20_000));
    const original = bytes("big.txt");
    await editor.replace({ path: "big.txt:10000", content: "x" });
    await editor.batch({
      path: "big.txt",
      edits: [
        { start_line: 2, content: "a" },
        { start_line: 19_999, content: "b" },
      ],
    });
    const [dir] = readdirSync(journalDir);
    const entries = readdirSync(join(journalDir, dir!)).filter((n) => n.endsWith(".edit"));
    expect(entries).toHaveLength(2);
    // A header line and the few removed bytes, not a copy of the 20,000-line file.
    for (const e of entries) expect(statSync(join(journalDir, dir!, e)).size).toBeLessThan(400);
    await editor.undo({ path: "big.txt" });
    await editor.undo({ path: "big.txt" });
    expect(bytes("big.txt").equals(original)).toBe(true);
  });

  it("refuses a corrupt journal entry with io_error and writes nothing", async () => {
    const { editor, file, journalDir, bytes } = setup();
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    const [dir] = readdirSync(journalDir);
    const name = readdirSync(join(journalDir, dir!)).find((n) => n.endsWith(".edit"))!;
    const path = join(journalDir, dir!, name);
    const raw = readFileSync(path);
    const nl = raw.indexOf(10);
    const head = raw.subarray(0, nl + 1);
    writeFileSync(path, Buffer.concat([head, Buffer.from("tampered")]));
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("io_error");
    expect(bytes("a.txt").toString()).toBe("b\n");
    const entry = JSON.parse(head.toString("utf8")) as Record<string, unknown>;
    for (const splices of [[1, 2, 3], [[0, -1, 1]], [["0", 1, 1]], "x"]) {
      writeFileSync(
        path,
        Buffer.concat([Buffer.from(`${JSON.stringify({ ...entry, splices })}\n`), raw.subarray(nl + 1)]),
      );
      const err = await failure(editor.undo({ path: "a.txt" }));
      expect(`${JSON.stringify(splices)}: ${err.code}`).toBe(`${JSON.stringify(splices)}: io_error`);
    }
    const json = path;
    writeFileSync(json, "{ not json");
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("io_error");
    expect(bytes("a.txt").toString()).toBe("b\n");
  });
});

describe("undo after a crash between journaling and writing", () => {
  it("skips an entry whose edit never landed and undoes the one below it", async () => {
    const { editor, file, bytes, journalDir } = setup();
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    await editor.replace({ path: "a.txt:1", content: "c" });
    // The second entry is on disk, but the process died before the rename: the file is as before it.
    file("a.txt", "b\n");
    const [dir] = readdirSync(journalDir);
    const entries = () => readdirSync(join(journalDir, dir!)).length;
    // A preview passes over it too, but leaves the journal as it is.
    expect((await editor.undo({ path: "a.txt", preview: true })).preview).toBe(true);
    expect(entries()).toBe(2);
    const r = await editor.undo({ path: "a.txt" });
    expect(r.written).toBe(true);
    // A hand revert looks the same as this crash: the result says an edit was passed over.
    expect(r.warnings.join("\n")).toMatch(/newest edit of this file \(replace\) is not in it/);
    expect(bytes("a.txt").toString()).toBe("a\n");
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
  });

  // A real process killed at the exact point, not a file rewritten by the test.
  const crashEdit = (root: string, journalDir: string, phase: string, content: string) => {
    const worker = join(import.meta.dirname, "fixtures", "crash-worker.mjs");
    const r = spawnSync(process.execPath, [worker, root, journalDir, join(root, "a.txt"), phase, content]);
    expect(`${r.signal} ${r.stderr}`).toBe("SIGKILL ");
  };

  it("a process killed after journaling, before the rename: file untouched, undo skips its entry", async () => {
    const { editor, file, bytes, root, journalDir } = setup();
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    crashEdit(root, journalDir, "journal", "c");
    expect(bytes("a.txt").toString()).toBe("b\n");
    // The killed writer's temp file goes with the next write; the edit after the crash is journaled.
    await editor.replace({ path: "a.txt:1", content: "d" });
    expect(readdirSync(root)).toEqual(["a.txt"]);
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("b\n");
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("a\n");
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
  });

  it("a process killed after the rename, before trimming the journal: undo undoes that edit", async () => {
    const { editor, file, bytes, root, journalDir } = setup({ journalDepth: 2 });
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    await editor.replace({ path: "a.txt:1", content: "c" });
    crashEdit(root, journalDir, "write", "d");
    expect(bytes("a.txt").toString()).toBe("d\n");
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("c\n");
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("b\n");
  });

  it("an undo killed after its rename, before dropping its entry: the next undo goes one further", async () => {
    const { editor, file, bytes, root, journalDir } = setup();
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    await editor.replace({ path: "a.txt:1", content: "c" });
    crashEdit(root, journalDir, "write", "<undo>");
    expect(bytes("a.txt").toString()).toBe("b\n");
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("a\n");
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
  });

  it("a creation killed after journaling, before the file was placed: undo skips its entry", async () => {
    const { editor, root, journalDir, abs } = setup();
    crashEdit(root, journalDir, "journal", "<create>");
    expect(existsSync(abs("a.txt"))).toBe(false);
    expect((await failure(editor.undo({ path: "a.txt", preview: true }))).code).toBe("nothing_to_undo");
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
    await editor.write({ path: "a.txt", content: "made\n" });
    await editor.undo({ path: "a.txt" });
    expect(existsSync(abs("a.txt"))).toBe(false);
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("nothing_to_undo");
  });

  it("still reads an entry of the older two-file layout", async () => {
    const { editor, file, journalDir, bytes } = setup();
    file("a.txt", "one\ntwo\n");
    await editor.replace({ path: "a.txt:2", content: "TWO" });
    const [dir] = readdirSync(journalDir);
    const name = readdirSync(join(journalDir, dir!)).find((n) => n.endsWith(".edit"))!;
    const raw = readFileSync(join(journalDir, dir!, name));
    const nl = raw.indexOf(10);
    const base = join(journalDir, dir!, name.slice(0, -".edit".length));
    writeFileSync(`${base}.json`, raw.subarray(0, nl + 1));
    writeFileSync(`${base}.bin`, raw.subarray(nl + 1));
    unlinkSync(join(journalDir, dir!, name));
    await editor.undo({ path: "a.txt" });
    expect(bytes("a.txt").toString()).toBe("one\ntwo\n");
    expect(readdirSync(join(journalDir, dir!))).toEqual([]);
  });
});

describe("undo of a creation", () => {
  it("refuses when the created file was changed since, and has nothing to undo once it is gone", async () => {
    const { editor, abs } = setup();
    await editor.write({ path: "made.txt", content: "x\n" });
    writeFileSync(abs("made.txt"), "changed\n");
    expect((await failure(editor.undo({ path: "made.txt" }))).code).toBe("conflict");
    expect(existsSync(abs("made.txt"))).toBe(true);
    // Removed since: it is as before its creation, so that entry has nothing left to undo.
    unlinkSync(abs("made.txt"));
    expect((await failure(editor.undo({ path: "made.txt" }))).code).toBe("nothing_to_undo");
  });

  it("refuses when an edited file was removed since", async () => {
    const { editor, file, abs } = setup();
    file("a.txt", "a\n");
    await editor.replace({ path: "a.txt:1", content: "b" });
    unlinkSync(abs("a.txt"));
    const gone = await failure(editor.undo({ path: "a.txt" }));
    expect(gone.code).toBe("conflict");
    expect(gone.message).toContain("no longer exists");
  });
});

describe("undo input checks", () => {
  it("refuses a line position in the path instead of ignoring it", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "one\n");
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    for (const path of ["a.txt:-1", "a.txt:3", "a.txt:1-2", "a.txt:ALL"]) {
      const err = await failure(editor.undo({ path }));
      expect(err.code).toBe("invalid_range");
      expect(err.message).toContain("undo takes no line position");
    }
    expect(text("a.txt")).toBe("one\ntwo\n");
  });

  it("says nothing to undo for a never-edited binary file, not that it changed", async () => {
    const { editor, file } = setup();
    file("b.bin", Buffer.from([0, 1, 2, 0xff, 0]));
    const err = await failure(editor.undo({ path: "b.bin" }));
    expect(err.code).toBe("nothing_to_undo");
  });

  it("says the file changed when an edited file has turned binary since", async () => {
    const { editor, file } = setup();
    file("a.txt", "one\n");
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    file("a.txt", Buffer.from([0, 1, 2]));
    expect((await failure(editor.undo({ path: "a.txt" }))).code).toBe("conflict");
  });
});
