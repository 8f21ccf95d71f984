#!/usr/bin/env node
// Regenerates the broad corpus (issue 13): seeded, synthesised tool output in the native layouts
// of 22 log families, every diff and grep form (real git, diff and grep run over a seeded project),
// columnar CLI output, test runners and machine-readable linters. Each item names its `family`
// (e.g. "log:hdfs", "diff:word-diff") so the bench reports per family. Deterministic: the same
// bytes on every run (git gets fixed authors, dates and config; randomness is seeded per item).
//
//   node corpus/broad/generate.mjs          rewrite corpus/broad/items/* and manifest.json
//   node corpus/broad/generate.mjs --check  regenerate in memory, exit 1 if anything differs
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { manifestText, writeOrCheck } from "../lib/manifest.mjs";
import { removeTemps } from "../lib/util.mjs";
import { cliItems } from "./lib/cli.mjs";
import { logItems } from "./lib/logs.mjs";
import { mixedItems } from "./lib/mixed.mjs";
import { vcsItems } from "./lib/vcs.mjs";

const dir = dirname(fileURLToPath(import.meta.url));
const MAX_TOTAL_BYTES = 6 * 1024 * 1024;

function validate(item, seen) {
  const where = `broad corpus item ${item.id}`;
  if (!/^[a-z0-9-]+$/.test(item.id) || seen.has(item.id)) throw new Error(`${where}: bad or duplicate id`);
  if (!/^[a-z]+:[a-z0-9-]+$/.test(item.family)) throw new Error(`${where}: bad family ${item.family}`);
  if (item.content.length < 500) throw new Error(`${where}: too small`);
  if (item.gold.length === 0) throw new Error(`${where}: no gold answers`);
  for (const g of item.gold)
    if (!item.content.includes(g.text)) throw new Error(`${where}: gold not in content: ${g.text}`);
  if (item.content.includes("caveman-corpus-")) throw new Error(`${where}: leaks a temp path`);
  seen.add(item.id);
}

function collect() {
  try {
    const items = [...logItems(), ...vcsItems(), ...cliItems(), ...mixedItems()];
    const seen = new Set();
    for (const item of items) validate(item, seen);
    return items.sort((a, b) => (a.id < b.id ? -1 : 1));
  } finally {
    removeTemps();
  }
}

const items = collect();
const total = items.reduce((n, i) => n + Buffer.byteLength(i.content), 0);
if (total > MAX_TOTAL_BYTES) throw new Error(`broad corpus is ${total} bytes, over ${MAX_TOTAL_BYTES}`);
const manifest = manifestText(
  "Broad benchmark corpus of @caveman/engine; regenerate with `node corpus/broad/generate.mjs`.",
  items,
);
process.stdout.write(writeOrCheck(dir, items, manifest, "broad corpus"));
