// Shared by both corpus generators: the manifest text of a list of items, and the write or
// --check step that compares a fresh generation with what is committed.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** manifest.json text; `family` is written only for items that have one (the broad corpus). */
export function manifestText(description, items) {
  const entry = (i) => ({
    id: i.id,
    kind: i.kind,
    ...(i.family ? { family: i.family } : {}),
    hint: i.hint,
    file: `items/${i.id}.${i.ext}`,
    source: i.source,
    bytes: Buffer.byteLength(i.content),
    sha256: createHash("sha256").update(i.content).digest("hex"),
    gold: i.gold,
  });
  return `${JSON.stringify({ description, items: items.map(entry) }, null, 2)}\n`;
}

/**
 * With --check, exit 1 naming every file that differs from `items`/`manifest`; otherwise rewrite
 * `<dir>/items/*` and `<dir>/manifest.json`. Returns the line to print.
 */
export function writeOrCheck(dir, items, manifest, label) {
  const itemsDir = join(dir, "items");
  const total = items.reduce((n, i) => n + Buffer.byteLength(i.content), 0);
  if (process.argv.includes("--check")) {
    const stale = [];
    if (readFileSync(join(dir, "manifest.json"), "utf8") !== manifest) stale.push("manifest.json");
    for (const i of items) {
      const file = join(itemsDir, `${i.id}.${i.ext}`);
      if (!existsSync(file) || readFileSync(file, "utf8") !== i.content) stale.push(`items/${i.id}.${i.ext}`);
    }
    if (stale.length > 0) {
      process.stderr.write(`${label} differs from a fresh generation: ${stale.join(", ")}\n`);
      process.exit(1);
    }
    return `${label} is up to date: ${items.length} items, ${total} bytes\n`;
  }
  rmSync(itemsDir, { recursive: true, force: true });
  mkdirSync(itemsDir, { recursive: true });
  for (const i of items) writeFileSync(join(itemsDir, `${i.id}.${i.ext}`), i.content);
  writeFileSync(join(dir, "manifest.json"), manifest);
  if (readdirSync(itemsDir).length !== items.length) throw new Error("item file names collide");
  const kinds = new Map();
  for (const i of items) kinds.set(i.kind, (kinds.get(i.kind) ?? 0) + 1);
  const summary = [...kinds].map(([k, n]) => `${k} ${n}`).join(", ");
  return `wrote ${items.length} ${label} items (${total} bytes): ${summary}\n`;
}
