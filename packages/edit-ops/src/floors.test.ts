// The wings of src/ import downward only, and no files import each other in a circle. The floors,
// bottom up (README, "Source layout"):
//   ground  errors.ts, phases.ts: what every floor may need (typed errors, phase timings)
//   input/  what the caller asked: schemas, requests, positions, read targets
//   doc/    a file's lines in memory: decode, splice, byte splices, hashes, diffs, balance
//   plan/   what an operation does to those lines: regions, anchors, matches, near misses
//   disk/   files on disk: roots, confinement, locks, atomic writes, load, commit, journal
//   top     the other files of src/: editor, mutator, undo, read, result, types, index
// A file may import files of its own floor and of the floors below it. Imports are read with the
// TypeScript scanner, so `import type` and `export … from` count as arrows too.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FLOORS = ["ground", "input", "doc", "plan", "disk", "top"] as const;
const GROUND = new Set(["errors.ts", "phases.ts"]);

const here = dirname(fileURLToPath(import.meta.url));

/** The floor of a file, by its path relative to src/. A folder not in FLOORS is an error. */
function floorOf(file: string): number {
  const parts = file.split("/");
  if (parts.length === 1) return GROUND.has(file) ? 0 : FLOORS.length - 1;
  const floor = FLOORS.indexOf(parts[0] as (typeof FLOORS)[number]);
  if (floor < 1 || floor === FLOORS.length - 1 || parts.length > 2)
    throw new Error(`src/${file} is in no floor: add its folder to FLOORS here and in the README`);
  return floor;
}

type Edges = Map<string, string[]>;

/** Every file of src/ (tests included) and the files of src/ it imports. */
function importsOfSrc(): Edges {
  const files = readdirSync(here, { recursive: true, encoding: "utf8" })
    .map((n) => n.split("\\").join("/"))
    .filter((n) => n.endsWith(".ts"));
  const edges: Edges = new Map();
  for (const file of files) {
    const text = readFileSync(join(here, file), "utf8");
    const targets = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts"))
      // Test helpers outside src/ (../test/helpers.ts) are not part of the layering.
      .filter((target) => !target.startsWith("../"));
    edges.set(file, [...new Set(targets)]);
  }
  return edges;
}

/** The arrows that run to a higher floor, as `from -> to (floor → floor)`. */
function upward(edges: Edges): string[] {
  const out: string[] = [];
  for (const [from, targets] of edges) {
    for (const to of targets) {
      const a = floorOf(from);
      const b = floorOf(to);
      if (b > a) out.push(`${from} -> ${to} (${FLOORS[a]} imports ${FLOORS[b]})`);
    }
  }
  return out;
}

/** Files that reach themselves through their imports, one cycle each, as `a -> b -> a`. */
function circles(edges: Edges): string[] {
  const done = new Set<string>();
  const out: string[] = [];
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at !== -1) {
      out.push([...path.slice(at), file].join(" -> "));
      return;
    }
    if (done.has(file)) return;
    for (const to of edges.get(file) ?? []) visit(to, [...path, file]);
    done.add(file);
  };
  for (const file of edges.keys()) visit(file, []);
  return out;
}

describe("the layout of src/", () => {
  const edges = importsOfSrc();

  it("puts every file on a floor and finds the imports of each", () => {
    for (const file of edges.keys()) expect(() => floorOf(file), file).not.toThrow();
    expect(edges.get("editor.ts")).toContain("mutator.ts");
    expect(edges.get("plan/plan.ts")).toContain("doc/lines.ts");
  });

  it("imports downward only: ground < input < doc < plan < disk < top", () => {
    expect(upward(edges)).toEqual([]);
  });

  it("has no files that import each other in a circle", () => {
    expect(circles(edges)).toEqual([]);
  });

  it("would name an arrow running back up and a circle (the checks check)", () => {
    const bad: Edges = new Map([
      ["doc/lines.ts", ["plan/plan.ts"]],
      ["plan/plan.ts", ["doc/lines.ts"]],
    ]);
    expect(upward(bad)).toEqual(["doc/lines.ts -> plan/plan.ts (doc imports plan)"]);
    expect(circles(bad)).toEqual(["doc/lines.ts -> plan/plan.ts -> doc/lines.ts"]);
  });
});
