// A failed operation leaves the file byte-identical, leaves no temp file and records no undo
// entry — checked for every operation against files in each awkward shape.

import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Editor } from "../src/index.js";
import { failure, setup } from "./helpers.js";

const SHAPES: Record<string, string | Buffer> = {
  "crlf.txt": "a\r\nb\r\nc\r\n",
  "mixed.txt": "a\r\nb\nc\rd\n",
  "nofinal.txt": "a\nb",
  "bom.txt": "\uFEFFa\nb\n",
  "empty.txt": "",
  "one.txt": "only",
  "emoji.txt": "😀 a\n日本\n",
};

type Attempt = [label: string, run: (ed: Editor, path: string) => Promise<unknown>, code: string];

const ATTEMPTS: Attempt[] = [
  ["insert past the end", (ed, p) => ed.insert({ path: p, after_line: 99, content: "x" }), "out_of_range"],
  ["insert below zero", (ed, p) => ed.insert({ path: `${p}:-1`, content: "x" }), "invalid_range"],
  ["replace line 0", (ed, p) => ed.replace({ path: `${p}:0`, content: "x" }), "invalid_range"],
  ["replace reversed", (ed, p) => ed.replace({ path: `${p}:1-0`, content: "x" }), "invalid_range"],
  ["replace past the end", (ed, p) => ed.replace({ path: `${p}:1-99`, content: "x" }), "out_of_range"],
  ["replace no match", (ed, p) => ed.replace({ path: p, old: "zzz", new: "x" }), "no_match"],
  ["replace without position", (ed, p) => ed.replace({ path: p, content: "x" }), "invalid_range"],
  ["ALL with wrong old", (ed, p) => ed.replace({ path: `${p}:ALL`, old: "nope", content: "x" }), "conflict"],
  ["delete past the end", (ed, p) => ed.delete({ path: `${p}:99` }), "out_of_range"],
  [
    "stale expected_hash",
    (ed, p) => ed.delete({ path: `${p}:ALL`, expected_hash: "0".repeat(64) }),
    "conflict",
  ],
  ["write stale hash", (ed, p) => ed.write({ path: p, content: "x", expected_hash: "deadbeef" }), "conflict"],
  ["write NUL content", (ed, p) => ed.write({ path: p, content: "a\0b" }), "invalid_argument"],
  [
    "unknown key",
    (ed, p) => ed.insert({ path: p, after_line: 0, content: "x", line: 1 } as never),
    "invalid_argument",
  ],
  [
    "batch with one bad edit",
    (ed, p) =>
      ed.batch({
        path: p,
        edits: [
          { after_line: 0, content: "ok" },
          { start_line: 50, content: "bad" },
        ],
      }),
    "out_of_range",
  ],
  ["undo with nothing recorded", (ed, p) => ed.undo({ path: p }), "nothing_to_undo"],
];

describe("a failed operation changes nothing", () => {
  it.each(Object.keys(SHAPES))("on %s: same bytes, no temp file, no journal entry", async (name) => {
    const { editor, file, bytes, root, journalDir } = setup();
    file(name, SHAPES[name]!);
    const before = bytes(name);
    for (const [label, run, code] of ATTEMPTS) {
      const err = await failure(run(editor, name));
      expect(`${label}: ${err.code}`).toBe(`${label}: ${code}`);
      expect(bytes(name).equals(before), label).toBe(true);
    }
    expect(readdirSync(root)).toEqual([name]);
    expect(readdirSync(journalDir)).toEqual([]);
  });

  it("refuses every edit of UTF-16, UTF-32, NUL-holding and invalid UTF-8 files, keeping their bytes", async () => {
    const { editor, file, bytes } = setup();
    const files: Record<string, [Buffer, string]> = {
      "le.txt": [
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hi\n", "utf16le")]),
        "unsupported_encoding",
      ],
      "be.txt": [Buffer.from([0xfe, 0xff, 0, 0x68, 0, 0x0a]), "unsupported_encoding"],
      "le32.txt": [Buffer.from([0xff, 0xfe, 0, 0, 0x68, 0, 0, 0]), "unsupported_encoding"],
      "nul.txt": [Buffer.from("a\nb\0c\n"), "binary_file"],
      "latin1.txt": [Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), "binary_file"],
    };
    for (const [name, [content, code]] of Object.entries(files)) {
      file(name, content);
      const attempts = [
        () => editor.read({ path: name }),
        () => editor.insert({ path: name, after_line: 0, content: "x" }),
        () => editor.replace({ path: `${name}:1`, content: "x" }),
        () => editor.delete({ path: `${name}:ALL` }),
        () => editor.write({ path: name, content: "x" }),
        () => editor.batch({ path: name, edits: [{ start_line: 1, content: "x" }] }),
      ];
      for (const a of attempts) expect((await failure(a())).code, name).toBe(code);
      expect(bytes(name).equals(content), name).toBe(true);
    }
  });

  it("leaves a file it may not replace untouched, with no temp file", async () => {
    const { editor, file, bytes, root } = setup();
    file("f.txt", "keep\n");
    // root ignores permission bits, so it makes the directory immutable instead.
    const asRoot = process.getuid?.() === 0;
    const lock = (on: boolean) =>
      asRoot ? execFileSync("chattr", [on ? "+i" : "-i", root]) : chmodSync(root, on ? 0o555 : 0o755);
    lock(true);
    try {
      const err = await failure(editor.replace({ path: "f.txt:1", content: "x" }));
      expect(err.code).toBe("permission_denied");
      expect((await failure(editor.write({ path: "g.txt", content: "x" }))).code).toBe("permission_denied");
    } finally {
      lock(false);
    }
    expect(bytes("f.txt").toString()).toBe("keep\n");
    expect(readdirSync(root)).toEqual(["f.txt"]);
  });
});
