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

/**
 * Lines named by marker facts (`like line N`, `same change as line N`, `lines a-b` of `same text
 * as`) that the model cannot place: not kept, or inside the span of some marker (a region
 * marker's kept lines carry no numbers). Empty when every named line is in view.
 */
export function unplaceableReferences(input: string, output: string): string[] {
  const inputLines = input.split("\n");
  const outputLines = new Set(output.split("\n"));
  const spans: Array<[number, number]> = [];
  const named: number[] = [];
  for (const line of output.split("\n")) {
    if (!isMarkerLine(line)) continue;
    const span = /^\[caveman: (?:\d+ of )?lines? (\d+)(?:-(\d+))?/.exec(line);
    if (span) spans.push([Number(span[1]), Number(span[2] ?? span[1])]);
    const facts = line.slice(line.indexOf(";") + 1);
    for (const m of facts.matchAll(
      /\b(?:like|as) lines? ((?:\d+(?:-\d+)?(?: but for numbers)?(?: x\d+)?(?:, )?)+)/g,
    ))
      for (const ref of m[1]!.matchAll(/(\d+)(?:-(\d+))?(?: but for numbers)?(?: x\d+)?/g)) {
        const from = Number(ref[1]);
        const to = Number(ref[2] ?? ref[1]);
        for (let n = from; n <= to; n++) named.push(n);
      }
  }
  return named
    .filter(
      (n) => !outputLines.has(inputLines[n - 1] ?? "\u0000") || spans.some(([a, b]) => n >= a && n <= b),
    )
    .map((n) => `line ${n}: ${inputLines[n - 1] ?? "(none)"}`);
}
