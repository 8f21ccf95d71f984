// Loads the benchmark corpus (corpus/manifest.json + corpus/items/*) and verifies each item's
// bytes against the manifest's sha256, so a grader never runs on a silently edited item.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const corpusDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "corpus");

export function sha256(text) {
  return createHash("sha256").update(text).digest("hex");
}

/** Items in manifest order, each with its `content`; throws if an item's bytes changed. */
export function loadCorpus(dir = corpusDir) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  return manifest.items.map((entry) => {
    const content = readFileSync(join(dir, entry.file), "utf8");
    if (sha256(content) !== entry.sha256) {
      throw new Error(
        `corpus item ${entry.id} does not match its manifest sha256; run node corpus/generate.mjs`,
      );
    }
    return { ...entry, content };
  });
}
