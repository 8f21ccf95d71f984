import { readFileSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decode } from "../src/text.js";
import { setup } from "./helpers.js";

const lineText = fc.constantFrom("", "a", "b c", "  x", "{", "}", "é😀", "\tt", "r\r");
const fileBytes = fc
  .record({
    bom: fc.boolean(),
    body: fc.array(fc.tuple(lineText, fc.constantFrom("\n", "\r\n")), { maxLength: 12 }),
    final: fc.boolean(),
  })
  .map(({ bom, body, final }) => {
    let s = (bom ? "\uFEFF" : "") + body.map(([l, e]) => l + e).join("");
    if (!final && body.length > 0) s += "tail";
    return Buffer.from(s, "utf8");
  });

type Op =
  | { kind: "insert"; at: number; content: string }
  | { kind: "replace"; from: number; len: number; content: string }
  | { kind: "delete"; from: number; len: number };

const content = fc
  .array(lineText, { maxLength: 4 })
  .chain((ls) => fc.boolean().map((nl) => ls.join("\n") + (nl && ls.length > 0 ? "\n" : "")));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), content }),
  fc.record({ kind: fc.constant("replace" as const), from: fc.nat(), len: fc.nat(3), content }),
  fc.record({ kind: fc.constant("delete" as const), from: fc.nat(), len: fc.nat(3) }),
);

type Editor = ReturnType<typeof setup>["editor"];

/** Apply an op scaled to the file's current line count; false when it cannot apply (empty file). */
async function apply(editor: Editor, path: string, o: Op, preview = false): Promise<boolean> {
  const n = (await editor.read({ path })).total_lines;
  if (o.kind === "insert") {
    await editor.insert({ path, after_line: o.at % (n + 1), content: o.content, preview });
    return true;
  }
  if (n === 0) return false;
  const start = (o.from % n) + 1;
  const end = Math.min(n, start + o.len);
  if (o.kind === "replace")
    await editor.replace({ path, start_line: start, end_line: end, content: o.content, preview });
  else await editor.delete({ path, start_line: start, end_line: end, preview });
  return true;
}

describe("properties", () => {
  it("applying then undoing any sequence of edits gives back the original bytes", async () => {
    const { editor, abs } = setup();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, fc.array(op, { minLength: 1, maxLength: 6 }), async (bytes, ops) => {
        const path = abs(`seq-${run++}.txt`);
        writeFileSync(path, bytes);
        let applied = 0;
        for (const o of ops) {
          const before = readFileSync(path);
          if (!(await apply(editor, path, o))) continue;
          if (!readFileSync(path).equals(before)) applied++;
        }
        for (let i = 0; i < applied; i++) await editor.undo({ path });
        expect(readFileSync(path).equals(bytes)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("a preview never changes the file", async () => {
    const { editor, abs } = setup();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, op, async (bytes, o) => {
        const path = abs(`prev-${run++}.txt`);
        writeFileSync(path, bytes);
        await apply(editor, path, o, true);
        expect(readFileSync(path).equals(bytes)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });

  it("untouched lines keep their line endings", async () => {
    const { editor, abs } = setup();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, op, async (bytes, o) => {
        const path = abs(`eol-${run++}.txt`);
        writeFileSync(path, bytes);
        const old = decode(bytes, path);
        const n = old.lines.length;
        if (o.kind !== "insert" && n === 0) return;
        const r = await (async () => {
          await apply(editor, path, o);
          return decode(readFileSync(path), path);
        })();
        // Old lines [s, e) were replaced by k new lines; map every other line to its new index.
        let s: number;
        let e: number;
        if (o.kind === "insert") {
          s = o.at % (n + 1);
          e = s;
        } else {
          s = o.from % n;
          e = Math.min(n, s + 1 + o.len);
        }
        const k = r.lines.length - (n - (e - s));
        for (let i = 0; i < n; i++) {
          if (i >= s && i < e) continue;
          const j = i < s ? i : i - (e - s) + k;
          expect(r.lines[j]).toBe(old.lines[i]);
          // The last line's ending follows the file's final-newline state, which is kept instead.
          if (i === n - 1 || j === r.lines.length - 1) continue;
          expect(r.eols[j]).toBe(old.eols[i]);
        }
        expect(r.bom).toBe(old.bom);
        // Final-newline state is kept, unless the last line is now empty (it needs its newline to exist).
        const last = r.lines.length - 1;
        if (n > 0 && last >= 0 && r.lines[last] !== "")
          expect(r.eols[last] === "").toBe(old.eols[n - 1] === "");
      }),
      { numRuns: 300 },
    );
  });
});
