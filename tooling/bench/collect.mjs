// Merges bench/results/*.json (one per package section) into bench/results.json.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = join(root, "bench", "results");
const merged = {};
if (existsSync(dir)) {
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    const rec = JSON.parse(readFileSync(join(dir, name), "utf8"));
    merged[rec.section] = rec.data;
  }
}
writeFileSync(join(root, "bench", "results.json"), `${JSON.stringify(merged, null, 2)}\n`);
process.stdout.write(`\nbench/results.json written (${Object.keys(merged).length} sections)\n`);
