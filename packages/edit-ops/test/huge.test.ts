import { describe, expect, it } from "vitest";
import { lines, setup } from "./helpers.js";

describe("a 100,000-line file", () => {
  it("replaces one line, keeping every other byte, with a compact diff", async () => {
    const { editor, file, bytes } = setup();
    const original = lines(100_000, (i) => `const value${i} = ${i};`);
    file("huge.ts", original);
    const r = await editor.replace({ path: "huge.ts:50000", content: "const changed = true;" });
    expect(r.diff.split("\n").length).toBeLessThan(15);
    expect(r.total_lines).toBe(100_000);
    const expected = original.replace("const value50000 = 50000;\n", "const changed = true;\n");
    expect(bytes("huge.ts").toString()).toBe(expected);
    const read = await editor.read({ path: "huge.ts:99999-100000" });
    expect(read.numbered).toBe(" 99999\tconst value99999 = 99999;\n100000\tconst value100000 = 100000;");
    await editor.undo({ path: "huge.ts" });
    expect(bytes("huge.ts").toString()).toBe(original);
  });

  it("applies a batch spread over the whole file and reads are capped", async () => {
    const { editor, file, text } = setup();
    file("huge.txt", lines(100_000));
    const edits = Array.from({ length: 10 }, (_, i) => ({
      start_line: i * 10_000 + 1,
      content: `edited ${i}`,
    }));
    const r = await editor.batch({ path: "huge.txt", edits });
    expect(r.lines_added).toBe(10);
    expect(r.lines_removed).toBe(10);
    expect(text("huge.txt").split("\n")[90_000]).toBe("edited 9");
    const read = await editor.read({ path: "huge.txt" });
    expect(read).toMatchObject({
      end_line: 2000,
      truncated: true,
      next: { start_line: 2001, end_line: 100_000 },
    });
  });
});
