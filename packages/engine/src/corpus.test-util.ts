// Test helper: reads real corpus items (packages/engine/corpus) by id, and checks the output
// invariants every compressor must keep. Used by the unit tests only.
import { existsSync, readFileSync } from "node:fs";
import { isMarkerLine } from "./markers.js";

const corpusDir = new URL("../corpus/", import.meta.url);

export interface CorpusItem {
  id: string;
  kind: string;
  hint?: string;
  content: string;
  gold: Array<{ text: string; query?: string }>;
}

interface ManifestEntry {
  id: string;
  kind: string;
  hint?: string;
  file: string;
  gold: Array<{ text: string; query?: string }>;
}

function manifest(): ManifestEntry[] {
  const file = new URL("manifest.json", corpusDir);
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, "utf8")) as { items: ManifestEntry[] }).items;
}

/** The corpus item with this id (corpus/manifest.json); a clear error when it is missing. */
export function corpusItem(id: string): CorpusItem {
  const entry = manifest().find((e) => e.id === id);
  if (!entry) throw new Error(`corpus item ${id} is missing: regenerate with node corpus/generate.mjs`);
  return { ...entry, content: readFileSync(new URL(entry.file, corpusDir), "utf8") };
}

/** Every corpus item (empty when the corpus is not generated). */
export function corpusItems(): CorpusItem[] {
  return manifest().map((e) => ({ ...e, content: readFileSync(new URL(e.file, corpusDir), "utf8") }));
}

/** Output lines that are neither a (slice of a) line of the input nor a marker line. */
export function fabricatedLines(input: string, output: string): string[] {
  const lines = new Set(input.split("\n"));
  return output.split("\n").filter((l) => !lines.has(l) && !isMarkerLine(l) && !input.includes(l));
}
