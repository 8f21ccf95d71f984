// Edit latency on a 100,000-line file: a one-line replace and a 10-edit batch spread over the
// file, each a full operation (read, splice, diff, atomic write with fsync, journal). Also a
// preview (no write) to separate compute from disk. Results go to bench/results/edit-ops.json.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measure, printTable, writeResults } from "@caveman/bench";
import { createEditor } from "../dist/index.js";

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

  const opts = { warmup: 3, minMs: 1500, iterations: 200 };
  const rows = [];
  for (const [name, fn] of [
    ["replace 1 line", replaceOne],
    ["replace 1 line (preview)", previewOne],
    ["batch of 10 edits", batch10],
    ["read 101 lines", readRange],
  ]) {
    const t = await measure(fn, opts);
    rows.push({ operation: name, n: t.n, p50_ms: t.p50Ms, p99_ms: t.p99Ms, mean_ms: t.meanMs });
  }
  printTable(`edit-ops: ${LINES.toLocaleString("en")}-line file (${(bytes / 1e6).toFixed(1)} MB)`, rows);
  writeResults("edit-ops", { file_lines: LINES, file_bytes: bytes, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(journalDir, { recursive: true, force: true });
}
