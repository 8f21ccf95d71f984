// Edit latency on a 100,000-line file: a one-line replace (by range, by exact text, and anchored
// by range_hash) and a 10-edit batch spread over the file, each a full operation (read, splice,
// diff, atomic write with fsync, journal). Also a preview (no write) to separate compute from
// disk, and a near miss (no_match with its diagnostics). Then the stale-context benchmark
// (bench/stale.mjs). Results go to bench/results/edit-ops.json.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measure, printTable, writeResults } from "@caveman/bench";
import { createEditor, isEditError } from "../dist/index.js";
import { staleContext, staleRows } from "./stale.mjs";

const LINES = 100_000;
const root = mkdtempSync(join(tmpdir(), "edit-ops-bench-"));
const journalDir = mkdtempSync(join(tmpdir(), "edit-ops-bench-journal-"));
try {
  let text = "";
  for (let i = 1; i <= LINES; i++) text += `export const value${i} = computeSomething(${i}, "item ${i}");\n`;
  writeFileSync(join(root, "huge.ts"), text);
  const bytes = Buffer.byteLength(text);
  const editor = createEditor({ roots: [root], journalDir, journalDepth: 20 });

  let n = 0;
  const replaceOne = () =>
    editor.replace({ path: "huge.ts:50000", content: `export const changed = ${n++};` });
  const previewOne = () => editor.replace({ path: "huge.ts:50000", content: "x", preview: true });
  const batch10 = () =>
    editor.batch({
      path: "huge.ts",
      edits: Array.from({ length: 10 }, (_, i) => ({
        start_line: i * 10_000 + 5,
        content: `// edit ${i} ${n++}`,
      })),
    });
  const readRange = () => editor.read({ path: "huge.ts:50000-50100" });
  // Exact-text replace: each call swaps line 60000 between two texts, so every call matches once.
  let textSide = 0;
  const texts = [
    'export const value60000 = computeSomething(60000, "item 60000");',
    "export const value60000 = 'replaced';",
  ];
  const replaceText = () => {
    const from = texts[textSide];
    textSide = 1 - textSide;
    return editor.replace({ path: "huge.ts", old: from, new: texts[textSide] });
  };
  const anchor = await editor.read({ path: "huge.ts:70000" });
  const replaceAnchored = () =>
    editor.replace({ path: "huge.ts:70000", content: anchor.content, range_hash: anchor.range_hash });
  const nearMiss = async () => {
    try {
      await editor.replace({
        path: "huge.ts",
        old: 'export const value77777 = computeSomethign(77777, "item 77777");',
        new: "x",
      });
    } catch (err) {
      if (!isEditError(err) || err.code !== "no_match") throw err;
      return;
    }
    throw new Error("the near miss matched");
  };

  const opts = { warmup: 3, minMs: 1500, iterations: 200 };
  const rows = [];
  for (const [name, fn] of [
    ["replace 1 line", replaceOne],
    ["replace 1 line (preview)", previewOne],
    ["replace exact text (1 line)", replaceText],
    ["replace 1 line with range_hash", replaceAnchored],
    ["near miss: no_match + diagnostics", nearMiss],
    ["batch of 10 edits", batch10],
    ["read 101 lines", readRange],
  ]) {
    const t = await measure(fn, opts);
    rows.push({ operation: name, n: t.n, p50_ms: t.p50Ms, p99_ms: t.p99Ms, mean_ms: t.meanMs });
  }
  printTable(`edit-ops: ${LINES.toLocaleString("en")}-line file (${(bytes / 1e6).toFixed(1)} MB)`, rows);
  const stale = await staleContext();
  printTable(
    `stale context: read one line, another writer changes the file, then replace it (${stale.trials_per_scenario} trials per scenario, ${stale.file_lines}-line file)`,
    staleRows(stale),
  );
  writeResults("edit-ops", { file_lines: LINES, file_bytes: bytes, rows, stale_context: stale });
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(journalDir, { recursive: true, force: true });
}
