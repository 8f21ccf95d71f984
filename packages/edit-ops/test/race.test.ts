// Confinement under a race: a directory inside the root is swapped back and forth with a symlink
// to a directory outside (by another process, as fast as it can) while every edit operation and
// read runs against paths under it. Nothing outside may be read, created, changed or left
// behind. Duration: CAVEMAN_RACE_SECONDS (default 20).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { createEditor } from "../src/index.js";

const SECONDS = Number(process.env.CAVEMAN_RACE_SECONDS ?? "20");
const SECRET = "OUTSIDE-SECRET";

/** name -> kind:size:sha256 of every entry under `dir` (symlinks not followed). */
function snapshot(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    const key = prefix + name;
    if (st.isDirectory()) {
      out.set(key, "dir");
      for (const [k, v] of snapshot(p, `${key}/`)) out.set(k, v);
    } else {
      const hash = st.isFile() ? createHash("sha256").update(readFileSync(p)).digest("hex") : "";
      out.set(key, `${st.isFile() ? "file" : "other"}:${st.size}:${st.mode}:${hash}`);
    }
  }
  return out;
}

function lines(tag: string, n: number): string {
  return `${Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join("\n")}\n`;
}

describe("confinement under a directory/symlink swap race", () => {
  it(
    `reads nothing outside and creates, changes or leaves nothing outside (${SECONDS} s)`,
    async () => {
      const base = tempDir("edit-ops-race-");
      const root = join(base, "root");
      const outside = join(base, "outside");
      const sub = join(root, "sub");
      mkdirSync(sub, { recursive: true });
      mkdirSync(outside);
      // The outside directory mirrors the inside one name for name, so every path resolves there too.
      for (const dir of [sub, outside]) {
        const tag = dir === outside ? SECRET : "inside";
        writeFileSync(join(dir, "f.txt"), lines(tag, 6));
        writeFileSync(join(dir, "g.txt"), lines(tag, 6));
        mkdirSync(join(dir, "d"));
        writeFileSync(join(dir, "d", "h.txt"), lines(tag, 3));
      }
      const before = snapshot(outside);
      const editor = createEditor({ roots: [root], journalDir: join(base, "journal") });

      const swapper = spawn(process.execPath, [
        join(import.meta.dirname, "fixtures", "swapper.mjs"),
        sub,
        outside,
        String(SECONDS * 1000),
      ]);
      let swapOut = "";
      swapper.stdout.on("data", (c) => {
        swapOut += c;
      });
      const swapperDone = new Promise<void>((r) => swapper.on("exit", () => r()));

      const stats = { ops: 0, ok: 0, leaked: 0, reads: 0, leakedReads: 0 };
      const byOp = new Map<string, { ok: number; fail: number }>();
      const end = Date.now() + SECONDS * 1000;
      let n = 0;
      const ops: Array<[string, () => Promise<unknown>]> = [
        ["read", () => editor.read({ path: "sub/f.txt" })],
        ["read-d", () => editor.read({ path: "sub/d/h.txt:1-2" })],
        ["write", () => editor.write({ path: "sub/g.txt", content: lines("inside", 6) })],
        ["write-new", () => editor.write({ path: `sub/new-${n % 7}.txt`, content: "new\n" })],
        [
          "write-dirs",
          () => editor.write({ path: `sub/made-${n % 5}/x/y.txt`, content: "deep\n", create_dirs: true }),
        ],
        ["insert", () => editor.insert({ path: "sub/f.txt", after_line: 1, content: "inside ins" })],
        ["replace", () => editor.replace({ path: "sub/f.txt:1", content: "inside 1" })],
        ["replace-text", () => editor.replace({ path: "sub/d/h.txt", old: " 2\n", new: " 2\n" })],
        ["delete", () => editor.delete({ path: "sub/f.txt:2" })],
        [
          "batch",
          () =>
            editor.batch({
              path: "sub/g.txt",
              edits: [
                { start_line: 1, content: "inside 1" },
                { after_line: 3, content: "inside b" },
              ],
            }),
        ],
        ["undo", () => editor.undo({ path: "sub/g.txt" })],
        ["undo-f", () => editor.undo({ path: "sub/f.txt" })],
      ];
      const worker = async () => {
        while (Date.now() < end) {
          const [name, op] = ops[n++ % ops.length]!;
          const tally = byOp.get(name) ?? { ok: 0, fail: 0 };
          byOp.set(name, tally);
          stats.ops++;
          if (name.startsWith("read")) stats.reads++;
          try {
            const result = await op();
            stats.ok++;
            tally.ok++;
            if (JSON.stringify(result).includes(SECRET)) {
              stats.leaked++;
              if (name.startsWith("read")) stats.leakedReads++;
            }
          } catch (err) {
            tally.fail++;
            if (String((err as Error).message).includes(SECRET)) stats.leaked++;
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
      await swapperDone;
      const after = snapshot(outside);
      const created = [...after.keys()].filter((k) => !before.has(k));
      const changed = [...before.keys()].filter((k) => after.has(k) && after.get(k) !== before.get(k));
      const removed = [...before.keys()].filter((k) => !after.has(k));
      const temps = created.filter((k) => k.includes(".caveman-"));
      const report = {
        seconds: SECONDS,
        swapper: JSON.parse(swapOut || "{}"),
        ...stats,
        created: created.length,
        changed: changed.length,
        removed: removed.length,
        temps: temps.length,
        byOp: Object.fromEntries(byOp),
      };
      process.stderr.write(`race report: ${JSON.stringify(report)}\n`);
      // The race really happened: operations ran against both shapes of the tree.
      expect(report.swapper.swaps).toBeGreaterThan(100);
      expect(stats.ok).toBeGreaterThan(50);
      expect({ leaked: stats.leaked, created, changed, removed }).toEqual({
        leaked: 0,
        created: [],
        changed: [],
        removed: [],
      });
    },
    SECONDS * 1000 + 60_000,
  );
});
