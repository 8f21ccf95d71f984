// Range-checked edits: `range_hash` (read's hash of exactly the lines an edit touches) lets an edit
// go ahead while those lines are unchanged, follows them when lines move, and refuses otherwise.

import { describe, expect, it } from "vitest";
import { failure, lines, setup } from "./helpers.js";

describe("range_hash", () => {
  it("is the hash read returns, so a read of the lines then an edit of them goes through", async () => {
    const { editor, file, text } = setup();
    file("a.txt", "one\r\ntwo\r\nthree\n");
    const r = await editor.read({ path: "a.txt:2" });
    await editor.replace({ path: "a.txt:2", content: "TWO", range_hash: r.range_hash.slice(0, 12) });
    expect(text("a.txt")).toBe("one\r\nTWO\r\nthree\n");
  });

  it("follows the lines when another writer inserted lines above, where expected_hash refuses", async () => {
    const { editor, file, text } = setup();
    file("a.txt", lines(20));
    const r = await editor.read({ path: "a.txt:10-11" });
    file("a.txt", `new 1\nnew 2\nnew 3\n${lines(20)}`);
    const stale = await failure(
      editor.replace({ path: "a.txt:10-11", content: "X\n", expected_hash: r.hash }),
    );
    expect(stale.code).toBe("conflict");
    const out = await editor.replace({
      path: "a.txt:10-11",
      content: "X\n",
      expected_hash: r.hash,
      range_hash: r.range_hash,
    });
    expect(out.removed[0]).toMatchObject({
      text: "line 10\nline 11\n",
      origin: { start_line: 13, end_line: 14 },
    });
    expect(text("a.txt")).toBe(`new 1\nnew 2\nnew 3\n${lines(20).replace("line 10\nline 11\n", "X\n")}`);
  });

  it("follows the lines up when lines above were removed, and goes ahead when only lines below changed", async () => {
    const { editor, file, text } = setup();
    file("a.txt", lines(20));
    const r = await editor.read({ path: "a.txt:15" });
    file("a.txt", lines(20).replace("line 2\nline 3\n", ""));
    await editor.delete({ path: "a.txt:15", range_hash: r.range_hash });
    expect(text("a.txt")).not.toContain("line 15\n");
    expect(text("a.txt")).toContain("line 14\nline 16\n");
    const again = await editor.read({ path: "a.txt:2" });
    file("a.txt", `${text("a.txt")}tail\n`);
    await editor.insert({ path: "a.txt:2", content: "after four", range_hash: again.range_hash });
    expect(text("a.txt").split("\n").slice(0, 3)).toEqual(["line 1", "line 4", "after four"]);
  });

  it("refuses with conflict naming the lines and showing them when the lines themselves changed", async () => {
    const { editor, file, bytes } = setup();
    file("a.txt", lines(5));
    const r = await editor.read({ path: "a.txt:3" });
    file("a.txt", lines(5).replace("line 3", "line three"));
    const before = bytes("a.txt");
    const err = await failure(editor.replace({ path: "a.txt:3", content: "x", range_hash: r.range_hash }));
    expect(err.code).toBe("conflict");
    expect(err.message).toMatch(/^line 3 of .*a\.txt changed since it was read/);
    expect(err.message).toContain("It now holds:\nline three");
    expect(bytes("a.txt")).toEqual(before);
  });

  it("never guesses between two copies of the text unless expected_hash says the file is as read", async () => {
    const { editor, file, text } = setup();
    const body = "a {\n}\nb {\n}\n";
    file("a.txt", body);
    const r = await editor.read({ path: "a.txt:2" });
    const err = await failure(
      editor.replace({ path: "a.txt:2", content: "} // a", range_hash: r.range_hash }),
    );
    expect(err.code).toBe("conflict");
    expect(err.message).toContain("line 2 and line 4");
    await editor.replace({
      path: "a.txt:2",
      content: "} // a",
      range_hash: r.range_hash,
      expected_hash: r.hash,
    });
    expect(text("a.txt")).toBe("a {\n} // a\nb {\n}\n");
  });

  it("checks text-mode and ALL edits against the lines they cover, without moving them", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(4));
    const r = await editor.read({ path: "a.txt:2" });
    const err = await failure(
      editor.replace({ path: "a.txt", old: "line 3", content: "x", range_hash: r.range_hash }),
    );
    expect(err.code).toBe("conflict");
    await editor.replace({ path: "a.txt", old: "line 2", content: "two", range_hash: r.range_hash });
    const all = await editor.read({ path: "a.txt" });
    await editor.replace({ path: "a.txt:ALL", content: "new\n", range_hash: all.range_hash });
    expect((await failure(editor.delete({ path: "a.txt:ALL", range_hash: r.range_hash }))).code).toBe(
      "conflict",
    );
  });

  it("refuses a hash that is not hex, and an anchored insert at the top", async () => {
    const { editor, file } = setup();
    file("a.txt", lines(3));
    expect((await failure(editor.replace({ path: "a.txt:1", content: "x", range_hash: "zz" }))).code).toBe(
      "invalid_argument",
    );
    const r = await editor.read({ path: "a.txt:1" });
    const top = await failure(editor.insert({ path: "a.txt:0", content: "x", range_hash: r.range_hash }));
    expect(top.code).toBe("invalid_argument");
  });

  it("in a batch, anchors each edit; one unanchored edit keeps the whole-file check", async () => {
    const { editor, file, text } = setup();
    file("a.txt", lines(10));
    const r1 = await editor.read({ path: "a.txt:2" });
    const r2 = await editor.read({ path: "a.txt:8" });
    file("a.txt", `top\n${lines(10)}`);
    const mixed = await failure(
      editor.batch({
        path: "a.txt",
        expected_hash: r1.hash,
        edits: [
          { start_line: 2, content: "TWO", range_hash: r1.range_hash },
          { start_line: 5, content: "FIVE" },
        ],
      }),
    );
    expect(mixed.code).toBe("conflict");
    await editor.batch({
      path: "a.txt",
      expected_hash: r1.hash,
      edits: [
        { start_line: 2, content: "TWO", range_hash: r1.range_hash },
        { start_line: 8, content: "EIGHT", range_hash: r2.range_hash },
      ],
    });
    expect(text("a.txt")).toBe(
      `top\n${lines(10).replace("line 2\n", "TWO\n").replace("line 8\n", "EIGHT\n")}`,
    );
  });
});
