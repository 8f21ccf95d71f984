import { describe, expect, it } from "vitest";
import { createEditor } from "../src/index.js";
import { lines, setup } from "./helpers.js";

describe("per-path serialisation", () => {
  it("applies concurrent edits of one file one after the other, losing none", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        editor.insert({ path: "a.txt", after_line: 0, content: `edit ${i}` }),
      ),
    );
    const got = text("a.txt").split("\n").filter(Boolean).sort();
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => `edit ${i}`).sort());
  });

  it("serialises edits that reach one file through a symlink and its real name", async () => {
    const { editor, file, abs, text } = setup();
    file("real.txt", lines(2));
    const { symlinkSync } = await import("node:fs");
    symlinkSync(abs("real.txt"), abs("alias.txt"));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        editor.insert({ path: i % 2 ? "alias.txt" : "real.txt", after_line: 2, content: `n${i}` }),
      ),
    );
    expect(text("real.txt").split("\n").filter(Boolean)).toHaveLength(12);
  });

  it("serialises two editors of one process (two sessions over the same files), losing no edit", async () => {
    const { editor, file, text, root, journalDir } = setup();
    const other = createEditor({ roots: [root], journalDir });
    file("a.txt", "base\n");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? editor : other).insert({ path: "a.txt", after_line: 1, content: `edit ${i}` }),
      ),
    );
    expect(results.every((r) => r.written)).toBe(true);
    const got = text("a.txt").split("\n").filter(Boolean);
    expect(got[0]).toBe("base");
    expect(got.slice(1).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `edit ${i}`).sort());
    // Every edit was journaled against the bytes it really replaced: all 20 undo cleanly.
    for (let i = 0; i < 20; i++) await (i % 2 ? other : editor).undo({ path: "a.txt" });
    expect(text("a.txt")).toBe("base\n");
  });

  it("lets a failed edit release the lock for the next one", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "x\n");
    const results = await Promise.allSettled([
      editor.replace({ path: "a.txt:5", content: "bad" }),
      editor.replace({ path: "a.txt:1", content: "good" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
    expect(text("a.txt")).toBe("good\n");
  });
});
