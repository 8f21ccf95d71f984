import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { propertyParams } from "@caveman/test-kit";
import { applyPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decode } from "../src/doc/lines.js";
import { type BatchEdit, createEditor, isEditError } from "../src/index.js";
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

/** Edits of one batch, as raw numbers scaled to the file when applied (overlaps are refused). */
type RawEdit = { at: number; len: number; insert: boolean; content: string };
type SeqOp =
  | Op
  | { kind: "batch"; edits: RawEdit[] }
  | { kind: "write"; content: string }
  | { kind: "text"; line: number; content: string };

const content = fc
  .array(lineText, { maxLength: 4 })
  .chain((ls) => fc.boolean().map((nl) => ls.join("\n") + (nl && ls.length > 0 ? "\n" : "")));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), content }),
  fc.record({ kind: fc.constant("replace" as const), from: fc.nat(), len: fc.nat(3), content }),
  fc.record({ kind: fc.constant("delete" as const), from: fc.nat(), len: fc.nat(3) }),
);

const rawEdit: fc.Arbitrary<RawEdit> = fc.record({
  at: fc.nat(),
  len: fc.nat(2),
  insert: fc.boolean(),
  content,
});
const seqOp: fc.Arbitrary<SeqOp> = fc.oneof(
  op,
  fc.record({
    kind: fc.constant("batch" as const),
    edits: fc.array(rawEdit, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("write" as const), content }),
  fc.record({ kind: fc.constant("text" as const), line: fc.nat(), content }),
);

type Editor = ReturnType<typeof setup>["editor"];

function batchEdits(raw: RawEdit[], n: number): BatchEdit[] {
  return raw.map((e) => {
    if (e.insert || n === 0) return { after_line: e.at % (n + 1), content: e.content };
    const start = (e.at % n) + 1;
    return { start_line: start, end_line: Math.min(n, start + e.len), content: e.content };
  });
}

/** Like `apply`, for every kind of edit; false when the edit is refused or cannot apply. */
async function applyAny(editor: Editor, path: string, o: SeqOp): Promise<boolean> {
  if (o.kind === "insert" || o.kind === "replace" || o.kind === "delete") return apply(editor, path, o);
  if (o.kind === "write") {
    await editor.write({ path, content: o.content });
    return true;
  }
  const doc = decode(readFileSync(path), path);
  const n = doc.lines.length;
  if (o.kind === "batch") {
    try {
      await editor.batch({ path, edits: batchEdits(o.edits, n) });
      return true;
    } catch (err) {
      if (isEditError(err) && err.code === "invalid_range") return false;
      throw err;
    }
  }
  const line = n === 0 ? "" : doc.lines[o.line % n]!;
  if (line === "") return false;
  try {
    await editor.replace({ path, old: line, new: o.content });
    return true;
  } catch (err) {
    if (isEditError(err) && err.code === "ambiguous_match") return false;
    throw err;
  }
}

const lf = (b: Buffer) =>
  b
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .replace(/\r\n/g, "\n");

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

// Each run writes, fsyncs, locks and journals real files: alone the slowest property takes ~4 s,
// but CI runs every package's tests at once on 2 cores, so the budget is per-machine-load, not
// per-assertion. A timeout is not what these tests check.
describe("properties", { timeout: 180_000 }, () => {
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
      propertyParams(60),
    );
  });

  it("applying then undoing any sequence of batch, write, text and line edits gives back the original bytes", async () => {
    const { editor, abs } = setup();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, fc.array(seqOp, { minLength: 1, maxLength: 5 }), async (bytes, ops) => {
        const path = abs(`any-${run++}.txt`);
        writeFileSync(path, bytes);
        let applied = 0;
        for (const o of ops) {
          const before = readFileSync(path);
          if (!(await applyAny(editor, path, o))) continue;
          if (!readFileSync(path).equals(before)) applied++;
        }
        for (let i = 0; i < applied; i++) await editor.undo({ path });
        expect(readFileSync(path).equals(bytes)).toBe(true);
      }),
      propertyParams(60),
    );
  });

  // The undo round trip cannot see a wrong edit (the journal restores whatever was written), and a
  // long-lived editor serves each next edit from the document it kept of the bytes it wrote. So:
  // every edit must write what a fresh editor, decoding the file from disk, writes.
  it("an editor reusing what it kept writes the same bytes as a fresh one decoding each file", async () => {
    const { editor, abs, root, journalDir } = setup();
    const fresh = () => createEditor({ roots: [root], journalDir });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, fc.array(seqOp, { minLength: 1, maxLength: 6 }), async (bytes, ops) => {
        const kept = abs(`kept-${run}.txt`);
        const cold = abs(`cold-${run++}.txt`);
        writeFileSync(kept, bytes);
        writeFileSync(cold, bytes);
        for (const o of ops) {
          let a: boolean | string;
          let b: boolean | string;
          try {
            a = await applyAny(editor, kept, o);
          } catch (err) {
            a = isEditError(err) ? err.code : String(err);
          }
          try {
            b = await applyAny(fresh(), cold, o);
          } catch (err) {
            b = isEditError(err) ? err.code : String(err);
          }
          expect(a).toBe(b);
          expect(readFileSync(kept).toString("hex")).toBe(readFileSync(cold).toString("hex"));
          // Keep both on the same bytes even when the check above is off, so one failure shows.
          copyFileSync(kept, cold);
        }
      }),
      propertyParams(300),
    );
  });

  it("the diff of any batch turns the old text into the new one", async () => {
    const { editor, abs } = setup();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, fc.array(rawEdit, { minLength: 1, maxLength: 5 }), async (bytes, raw) => {
        // A lone CR is line text the LF view cannot tell from a CRLF ending; other tests cover it.
        if (/\r(?!\n)/.test(bytes.toString()) || raw.some((e) => e.content.includes("\r"))) return;
        const path = abs(`diff-${run++}.txt`);
        writeFileSync(path, bytes);
        const n = decode(bytes, path).lines.length;
        let r: Awaited<ReturnType<Editor["batch"]>>;
        try {
          r = await editor.batch({ path, edits: batchEdits(raw, n), preview: true });
        } catch (err) {
          if (isEditError(err) && err.code === "invalid_range") return;
          throw err;
        }
        const after = await editor.batch({ path, edits: batchEdits(raw, n) });
        expect(after.diff).toBe(r.diff);
        const now = readFileSync(path);
        expect(r.changed ? applyPatch(lf(bytes), r.diff) : lf(bytes)).toBe(lf(now));
        const added = r.diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
        expect(r.lines_added).toBe(added);
      }),
      propertyParams(300),
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
      propertyParams(80),
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
      propertyParams(300),
    );
  });
});
