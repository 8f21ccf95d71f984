// The wings of src/ import downward only, and no files import each other in a circle. The floors,
// bottom up (README, "Source layout"):
//   ground  errors.ts, phases.ts: what every floor may need (typed errors, phase timings)
//   input/  what the caller asked: schemas, requests, positions, read targets
//   doc/    a file's lines in memory: decode, splice, byte splices, hashes, diffs, balance
//   plan/   what an operation does to those lines: regions, anchors, matches, near misses
//   disk/   files on disk: roots, confinement, locks, atomic writes, load, commit, journal
//   top     the other files of src/: editor, mutator, undo, read, result, types, index
// A file may import files of its own floor and of the floors below it. Imports are read from the
// TypeScript syntax tree, so `import type`, `export … from` and `import()` count as arrows too,
// and each is resolved to a file the way tsc resolves it (with the package's tsconfig).

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
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

/**
 * Every module specifier of `text`: imports and re-exports (type-only ones too), `import x =
 * require()`, dynamic `import()` and `import("…").T` types. Read from the syntax tree rather than
 * with `ts.preProcessFile`, whose scanner skips `export * as ns from` and `export type * as ns`.
 */
function specifiersOf(file: string, text: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        out.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const ref = node.moduleReference.expression;
      if (ts.isStringLiteral(ref)) out.push(ref.text);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) out.push(arg.literal.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const dynamic =
        callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require");
      const [arg] = node.arguments;
      if (dynamic && arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return out;
}

/** The package's compiler options (tsconfig.json), so a specifier resolves as tsc resolves it. */
function compilerOptions(): ts.CompilerOptions {
  const dir = join(here, "..");
  const { config } = ts.readConfigFile(join(dir, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, dir).options;
}
const options = compilerOptions();

/**
 * The file of src/ a specifier names, relative to src/ (null for another package or a file
 * outside src/). Resolved the way tsc resolves it, not judged by the spelling: from doc/,
 * `./splice` (no extension) is doc/splice.ts, `../../src/mutator.js` is mutator.ts, and the
 * package's own name is index.ts.
 */
function fileOf(from: string, spec: string): string | null {
  const found = ts.resolveModuleName(spec, join(here, from), options, ts.sys).resolvedModule;
  if (!found) return null;
  const target = relative(here, found.resolvedFileName).split(sep).join("/");
  // Test helpers outside src/ (../test/helpers.ts) are not part of the layering.
  return target.startsWith("../") ? null : target;
}

/** The files of src/ that `text` (the file `file`, relative to src/) imports. */
function importsOf(file: string, text: string): string[] {
  const targets = specifiersOf(file, text).map((spec) => fileOf(file, spec));
  return [...new Set(targets.filter((t) => t !== null))];
}

/** Every file of src/ (tests included) and the files of src/ it imports. */
function importsOfSrc(): Edges {
  const files = readdirSync(here, { recursive: true, encoding: "utf8" })
    .map((n) => n.split("\\").join("/"))
    .filter((n) => n.endsWith(".ts"));
  const edges: Edges = new Map();
  for (const file of files) edges.set(file, importsOf(file, readFileSync(join(here, file), "utf8")));
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

  it("sees an arrow in every form of import and re-export, type-only ones too", () => {
    const forms = [
      'import { Plan } from "../plan/plan.js";',
      'import type { Plan } from "../plan/plan.js";',
      'import { type Plan } from "../plan/plan.js";',
      'import * as plan from "../plan/plan.js";',
      'import "../plan/plan.js";',
      'export { emptyPlan } from "../plan/plan.js";',
      'export type { Plan } from "../plan/plan.js";',
      'export * from "../plan/plan.js";',
      'export * as plan from "../plan/plan.js";',
      'export type * as plan from "../plan/plan.js";',
      'export const load = () => import("../plan/plan.js");',
      'export type P = import("../plan/plan.js").Plan;',
    ];
    for (const form of forms) expect(importsOf("doc/x.ts", form), form).toEqual(["plan/plan.ts"]);
  });

  it("sees an arrow written as the package's own name, or as a path that leaves src/ and comes back", () => {
    expect(importsOf("doc/x.ts", 'import { createEditor } from "@caveman/edit-ops";')).toEqual(["index.ts"]);
    expect(importsOf("doc/x.ts", 'import { createMutator } from "../../src/mutator.js";')).toEqual([
      "mutator.ts",
    ]);
    expect(importsOf("doc/x.ts", 'import { deadPid } from "../../test/helpers.js";')).toEqual([]);
  });

  it("sees an import without an extension, which the package's module resolution (Bundler) allows", () => {
    expect(importsOf("doc/x.ts", 'import { splice } from "./splice";')).toEqual(["doc/splice.ts"]);
    expect(importsOf("doc/x.ts", 'import { EditError } from "../errors";')).toEqual(["errors.ts"]);
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
