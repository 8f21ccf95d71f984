#!/usr/bin/env node
import { CONTENT_KINDS } from "../dist/index.js";
// Regenerates the benchmark corpus offline and deterministically: every item is real output of
// a real tool run here, or real data shipped by an installed package, with run-specific noise
// (temp paths, timings) replaced by fixed values. Writes corpus/items/<id>.<ext> and
// corpus/manifest.json; running it twice on this machine gives the same bytes.
//
//   node corpus/generate.mjs          regenerate
//   node corpus/generate.mjs --check  regenerate in memory and fail if anything differs
import { dataItems } from "./lib/data-items.mjs";
import { diagItems } from "./lib/diag-items.mjs";
import { gitItems } from "./lib/git-items.mjs";
import { manifestText, writeOrCheck } from "./lib/manifest.mjs";
import { miscItems } from "./lib/misc-items.mjs";
import { serverItems } from "./lib/server-items.mjs";
import { testItems } from "./lib/test-items.mjs";
import { fileItems } from "./lib/text-items.mjs";
import { corpusDir, removeTemps } from "./lib/util.mjs";

const MAX_TOTAL_BYTES = 6 * 1024 * 1024;

/** Reject an item that could not serve as a benchmark case, naming the reason. */
function validate(item, seen) {
  const where = `corpus item ${item.id}`;
  if (!/^[a-z0-9-]+$/.test(item.id) || seen.has(item.id)) throw new Error(`${where}: bad or duplicate id`);
  if (!CONTENT_KINDS.includes(item.kind)) throw new Error(`${where}: unknown kind ${item.kind}`);
  if (typeof item.content !== "string" || item.content.length < 500) throw new Error(`${where}: too small`);
  if (item.gold.length === 0) throw new Error(`${where}: no gold answers`);
  for (const g of item.gold) {
    if (typeof g.text !== "string" || g.text.length < 3)
      throw new Error(`${where}: empty gold ${JSON.stringify(g)}`);
    if (!item.content.includes(g.text)) throw new Error(`${where}: gold not in content: ${g.text}`);
  }
  for (const bad of ["/tmp/caveman-corpus-", "caveman-corpus-"]) {
    if (item.content.includes(bad)) throw new Error(`${where}: leaks a temp path`);
  }
  seen.add(item.id);
}

async function collect() {
  try {
    const items = [
      ...dataItems(),
      ...(await serverItems()),
      ...testItems(),
      ...diagItems(),
      ...miscItems(),
      ...gitItems(),
      ...fileItems(),
    ];
    const seen = new Set();
    for (const item of items) validate(item, seen);
    return items.sort((a, b) => (a.id < b.id ? -1 : 1));
  } finally {
    removeTemps();
  }
}

const items = await collect();
const total = items.reduce((n, i) => n + Buffer.byteLength(i.content), 0);
if (total > MAX_TOTAL_BYTES) throw new Error(`corpus is ${total} bytes, over the ${MAX_TOTAL_BYTES} budget`);
const manifest = manifestText(
  "Benchmark corpus of @caveman/engine; regenerate with `node corpus/generate.mjs`.",
  items,
);
process.stdout.write(writeOrCheck(corpusDir, items, manifest, "corpus"));
