// The hash an edit returns is the sha256 of the bytes on disk, also when it was computed from
// states kept from the previous edit of the same (multi-MiB) file.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { lines, setup } from "./helpers.js";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("result hash", () => {
  it("is the file's sha256 after each of a run of edits, previews and an undo on a 4 MB file", async () => {
    const { editor, file, bytes } = setup();
    file(
      "big.txt",
      lines(60_000, (i) => `row ${i} ${"x".repeat(50)}`),
    );
    let r = await editor.replace({ path: "big.txt:50000", content: "changed late" });
    expect(r.hash).toBe(sha(bytes("big.txt")));
    r = await editor.replace({ path: "big.txt:59000", content: "changed later", expected_hash: r.hash! });
    expect(r.hash).toBe(sha(bytes("big.txt")));
    const preview = await editor.replace({ path: "big.txt:10", content: "p", preview: true });
    expect(preview.hash).not.toBe(r.hash);
    r = await editor.insert({ path: "big.txt:58000", content: "inserted", expected_hash: r.hash! });
    expect(r.hash).toBe(sha(bytes("big.txt")));
    r = await editor.replace({ path: "big.txt:5", content: "early", expected_hash: r.hash! });
    expect(r.hash).toBe(sha(bytes("big.txt")));
    const u = await editor.undo({ path: "big.txt" });
    expect(u.hash).toBe(sha(bytes("big.txt")));
    r = await editor.replace({ path: "big.txt:59990", content: "after undo", expected_hash: u.hash! });
    expect(r.hash).toBe(sha(bytes("big.txt")));
  });
});
