// Where the time of a one-line replace on a 100,000-line file goes, phase by phase, from the
// timings edit-ops publishes on the diagnostics channel `caveman:edit-ops:phase` (see
// src/phases.ts). Phases: lock, read, plan, hash, diff, journal, write, fsync; journal runs
// beside write, and fsync is the part of both spent in fsync. Mean ms per edit, over ROUNDS edits.
//
// Before/after in one run: EDIT_OPS_BASELINE=<another build's index.js, with the same channel>
// times that build too, call by call interleaved with this one, each on its own copy of the file.
import { subscribe } from "node:diagnostics_channel";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { printTable } from "@caveman/bench";
import * as self from "../dist/index.js";

const LINES = 100_000;
const ROUNDS = 40;
const PHASES = ["lock", "read", "plan", "hash", "diff", "journal", "write", "fsync"];
let text = "";
for (let i = 1; i <= LINES; i++) text += `export const value${i} = computeSomething(${i}, "item ${i}");\n`;

const scratch = [];
const tempDir = (prefix) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};

function operations(lib) {
  const root = tempDir("edit-ops-phases-");
  writeFileSync(join(root, "huge.ts"), text);
  const editor = lib.createEditor({ roots: [root], journalDir: tempDir("edit-ops-phases-journal-") });
  let n = 0;
  let side = 0;
  const texts = [
    'export const value60000 = computeSomething(60000, "item 60000");',
    "export const value60000 = 'replaced';",
  ];
  return {
    "replace 1 line (range)": () =>
      editor.replace({ path: "huge.ts:50000", content: `export const changed = ${n++};` }),
    "replace exact text (1 line)": () => {
      const from = texts[side];
      side = 1 - side;
      return editor.replace({ path: "huge.ts", old: from, new: texts[side] });
    },
  };
}

let current = null;
subscribe("caveman:edit-ops:phase", ({ phase, ms }) => {
  if (current) current[phase] = (current[phase] ?? 0) + ms;
});

try {
  const builds = [["this", operations(self)]];
  if (process.env.EDIT_OPS_BASELINE) {
    builds.push(["baseline", operations(await import(pathToFileURL(process.env.EDIT_OPS_BASELINE).href))]);
  }
  const rows = [];
  for (const name of Object.keys(builds[0][1])) {
    const samples = builds.map(() => []);
    for (const [, ops] of builds) for (let i = 0; i < 3; i++) await ops[name]();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, [, ops]] of builds.entries()) {
        current = {};
        const t0 = performance.now();
        await ops[name]();
        current.total = performance.now() - t0;
        samples[k].push(current);
        current = null;
      }
    }
    for (const [k, [label]] of builds.entries()) {
      const mean = (key) => samples[k].reduce((a, s) => a + (s[key] ?? 0), 0) / samples[k].length;
      const sorted = samples[k].map((s) => s.total).sort((a, b) => a - b);
      const row = {
        operation: name,
        build: label,
        p50_ms: sorted[sorted.length >> 1],
        total_mean: mean("total"),
      };
      for (const p of PHASES) row[p] = mean(p);
      for (const key of Object.keys(row))
        if (typeof row[key] === "number") row[key] = Number(row[key].toFixed(2));
      rows.push(row);
    }
  }
  printTable(
    `edit phases, mean ms per edit (${LINES.toLocaleString("en")}-line file, ${ROUNDS} edits)`,
    rows,
  );
} finally {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
}
