import { describe, expect, it } from "vitest";
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
