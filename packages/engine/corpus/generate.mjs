#!/usr/bin/env node
// Regenerates the benchmark corpus offline and deterministically: every item is real output of
// a real tool run here, or real data shipped by an installed package, with run-specific noise
// (temp paths, timings) replaced by fixed values. Writes corpus/items/<id>.<ext> and
// corpus/manifest.json; running it twice on this machine gives the same bytes.
//
//   node corpus/generate.mjs          regenerate
//   node corpus/generate.mjs --check  regenerate in memory and fail if anything differs
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataItems } from "./lib/data-items.mjs";
import { diagItems } from "./lib/diag-items.mjs";
import { gitItems } from "./lib/git-items.mjs";
import { miscItems } from "./lib/misc-items.mjs";
import { serverItems } from "./lib/server-items.mjs";
import { testItems } from "./lib/test-items.mjs";
import { fileItems } from "./lib/text-items.mjs";
import { corpusDir, removeTemps } from "./lib/util.mjs";

const KINDS = ["json", "ndjson", "log", "stacktrace", "test", "diagnostics", "grep", "diff", "code", "table"];
KINDS.push("html", "terminal", "prose", "text");
const MAX_TOTAL_BYTES = 6 * 1024 * 1024;

/** Reject an item that could not serve as a benchmark case, naming the reason. */
function validate(item, seen) {
  const where = `corpus item ${item.id}`;
  if (!/^[a-z0-9-]+$/.test(item.id) || seen.has(item.id)) throw new Error(`${where}: bad or duplicate id`);
  if (!KINDS.includes(item.kind)) throw new Error(`${where}: unknown kind ${item.kind}`);
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

function manifestOf(items) {
  return {
    description: "Benchmark corpus of @caveman/engine; regenerate with `node corpus/generate.mjs`.",
    items: items.map((i) => ({
      id: i.id,
      kind: i.kind,
      hint: i.hint,
      file: `items/${i.id}.${i.ext}`,
      source: i.source,
      bytes: Buffer.byteLength(i.content),
      sha256: createHash("sha256").update(i.content).digest("hex"),
      gold: i.gold,
    })),
  };
}

const items = await collect();
const total = items.reduce((n, i) => n + Buffer.byteLength(i.content), 0);
if (total > MAX_TOTAL_BYTES) throw new Error(`corpus is ${total} bytes, over the ${MAX_TOTAL_BYTES} budget`);
const manifest = `${JSON.stringify(manifestOf(items), null, 2)}\n`;
const itemsDir = join(corpusDir, "items");

if (process.argv.includes("--check")) {
  const stale = [];
  if (readFileSync(join(corpusDir, "manifest.json"), "utf8") !== manifest) stale.push("manifest.json");
  for (const i of items) {
    const file = join(itemsDir, `${i.id}.${i.ext}`);
    if (!existsSync(file) || readFileSync(file, "utf8") !== i.content) stale.push(`items/${i.id}.${i.ext}`);
  }
  if (stale.length > 0) {
    process.stderr.write(`corpus differs from a fresh generation: ${stale.join(", ")}\n`);
    process.exit(1);
  }
  process.stdout.write(`corpus is up to date: ${items.length} items, ${total} bytes\n`);
} else {
  rmSync(itemsDir, { recursive: true, force: true });
  mkdirSync(itemsDir, { recursive: true });
  for (const i of items) writeFileSync(join(itemsDir, `${i.id}.${i.ext}`), i.content);
  writeFileSync(join(corpusDir, "manifest.json"), manifest);
  const kinds = new Map();
  for (const i of items) kinds.set(i.kind, (kinds.get(i.kind) ?? 0) + 1);
  const summary = [...kinds].map(([k, n]) => `${k} ${n}`).join(", ");
  process.stdout.write(`wrote ${items.length} items (${total} bytes): ${summary}\n`);
  if (readdirSync(itemsDir).length !== items.length) throw new Error("item file names collide");
}
