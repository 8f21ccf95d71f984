// Edit latency on a 100,000-line file: a one-line replace (by range, by exact text, and anchored
// by range_hash) and a 10-edit batch spread over the file, each a full operation (read, splice,
// diff, atomic write with fsync, journal). Also a preview (no write) to separate compute from
// disk, and a near miss (no_match with its diagnostics). Beside them, in the same run and on its own
// copy of the file, the official MCP filesystem server's edit_file path (validatePath, then
// applyFileEdits: the library calls its tool handler makes) with the same one-line exact-text
// replace. Then the stale-context benchmark (bench/stale.mjs). Results go to
// bench/results/edit-ops.json.
//
// Before/after in one run: with EDIT_OPS_BASELINE=<another build's dist/index.js> (for instance a
// clone of main, built), every operation is also timed on that build, interleaved call by call
// with this one on its own copy of the file, so both see the same machine load.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { printTable, summarize, writeResults } from "@caveman/bench";
import {
  applyFileEdits,
  setAllowedDirectories,
  validatePath,
} from "@modelcontextprotocol/server-filesystem/dist/lib.js";
import { createEditor, isEditError } from "../dist/index.js";
import { staleContext, staleRows } from "./stale.mjs";

const LINES = 100_000;
const ROUNDS = 40;
const scratch = [];
const tempDir = (prefix) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};

let text = "";
for (let i = 1; i <= LINES; i++) text += `export const value${i} = computeSomething(${i}, "item ${i}");\n`;
const bytes = Buffer.byteLength(text);

/** The timed operations, on one editor build and its own copy of the file. */
async function operations(create, isError) {
  const root = tempDir("edit-ops-bench-");
  writeFileSync(join(root, "huge.ts"), text);
  const editor = create({ roots: [root], journalDir: tempDir("edit-ops-bench-journal-"), journalDepth: 20 });
  let n = 0;
  // Exact-text replace: each call swaps line 60000 between two texts, so every call matches once.
  let side = 0;
  const texts = [
    'export const value60000 = computeSomething(60000, "item 60000");',
    "export const value60000 = 'replaced';",
  ];
  // Anchored replace: line 70000 swaps between two texts, each call anchored by the hash of the
  // text the line holds (what be-read would return for it).
  const anchored = [(await editor.read({ path: "huge.ts:70000" })).content, "export const anchored = 1;\n"];
  let anchorSide = 0;
  return {
    "replace 1 line": () =>
      editor.replace({ path: "huge.ts:50000", content: `export const changed = ${n++};` }),
    "replace 1 line (preview)": () => editor.replace({ path: "huge.ts:50000", content: "x", preview: true }),
    "replace exact text (1 line)": () => {
      const from = texts[side];
      side = 1 - side;
      return editor.replace({ path: "huge.ts", old: from, new: texts[side] });
    },
    "replace 1 line with range_hash": () => {
      const from = anchored[anchorSide];
      anchorSide = 1 - anchorSide;
      const range_hash = createHash("sha256").update(from).digest("hex");
      return editor.replace({ path: "huge.ts:70000", content: anchored[anchorSide], range_hash });
    },
    "near miss: no_match + diagnostics": async () => {
      try {
        await editor.replace({
          path: "huge.ts",
          old: 'export const value77777 = computeSomethign(77777, "item 77777");',
          new: "x",
        });
      } catch (err) {
        if (!isError(err) || err.code !== "no_match") throw err;
        return;
      }
      throw new Error("the near miss matched");
    },
    "batch of 10 edits": () =>
      editor.batch({
        path: "huge.ts",
        edits: Array.from({ length: 10 }, (_, i) => ({
          start_line: i * 10_000 + 5,
          content: `// edit ${i} ${n++}`,
        })),
      }),
    "read 101 lines": () => editor.read({ path: "huge.ts:50000-50100" }),
  };
}

/** The filesystem server's edit_file, on its own copy: each call swaps line 60000 like ours. */
function filesystemOperations() {
  const root = tempDir("edit-ops-bench-fs-");
  writeFileSync(join(root, "huge.ts"), text);
  setAllowedDirectories([root]);
  const texts = [
    'export const value60000 = computeSomething(60000, "item 60000");',
    "export const value60000 = 'replaced';",
  ];
  let side = 0;
  return {
    "replace exact text (1 line)": async () => {
      const from = texts[side];
      side = 1 - side;
      const path = await validatePath(join(root, "huge.ts"));
      return applyFileEdits(path, [{ oldText: from, newText: texts[side] }], false);
    },
  };
}

try {
  const builds = [["this", await operations(createEditor, isEditError)]];
  builds.push(["filesystem edit_file", filesystemOperations()]);
  const baseline = process.env.EDIT_OPS_BASELINE;
  if (baseline) {
    const other = await import(pathToFileURL(baseline).href);
    builds.push(["baseline", await operations(other.createEditor, other.isEditError)]);
  }
  const rows = [];
  for (const name of Object.keys(builds[0][1])) {
    // range_hash did not exist before this build: the baseline would refuse the key. The
    // filesystem server has only the exact-text replace.
    const runs = builds.filter(([label, ops]) =>
      label === "baseline" ? name !== "replace 1 line with range_hash" : name in ops,
    );
    const samples = runs.map(() => []);
    for (const [, ops] of runs) for (let i = 0; i < 3; i++) await ops[name](); // warm up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, [, ops]] of runs.entries()) {
        const t0 = performance.now();
        await ops[name]();
        samples[k].push(performance.now() - t0);
      }
    }
    for (const [k, [label]] of runs.entries()) {
      const t = summarize(samples[k]);
      rows.push({
        operation: name,
        build: label,
        n: t.n,
        p50_ms: t.p50Ms,
        p99_ms: t.p99Ms,
        mean_ms: t.meanMs,
      });
    }
  }
  printTable(`edit-ops: ${LINES.toLocaleString("en")}-line file (${(bytes / 1e6).toFixed(1)} MB)`, rows);
  const stale = await staleContext();
  printTable(
    `stale context: read one line, another writer changes the file, then replace it (${stale.trials_per_scenario} trials per scenario, ${stale.file_lines}-line file)`,
    staleRows(stale),
  );
  writeResults("edit-ops", { file_lines: LINES, file_bytes: bytes, rows, stale_context: stale });
} finally {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
}
