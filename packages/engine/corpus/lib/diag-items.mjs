// Compiler and linter diagnostics: tsc over the planted project (plain and --pretty with
// colours), tsc --checkJs over js-yaml 3.15.2 (hundreds of real errors, a few rare codes),
// Biome's lint report over the same sources, and rustc over a planted Rust file. Paths and timings are fixed; nothing else is edited.
import { cpSync } from "node:fs";
import { join } from "node:path";
import { copyProject, gold, makeTemp, replaceAll, repoRoot, run, storePackage, toolEnv } from "./util.mjs";

const tsc = join(storePackage("typescript@5.9.3"), "bin", "tsc");
const biome = join(repoRoot, "node_modules", ".bin", "biome");

function plantedProject() {
  const dir = makeTemp("tsc");
  copyProject("", dir);
  const norm = (s) => replaceAll(s, [[dir, "/work/shop"]]);
  const plain = run(process.execPath, [tsc, "-p", ".", "--pretty", "false"], { cwd: dir });
  const pretty = run(process.execPath, [tsc, "-p", ".", "--pretty", "true"], { cwd: dir });
  return { plain: norm(plain.stdout), pretty: norm(pretty.stdout) };
}

function jsYamlSources() {
  const dir = makeTemp("js-yaml");
  cpSync(join(storePackage("js-yaml@3.15.2"), "lib"), join(dir, "lib"), { recursive: true });
  return dir;
}

function checkJs(dir) {
  const files = run("find", ["lib", "-name", "*.js"], { cwd: dir }).stdout.split("\n").filter(Boolean).sort();
  const args = [tsc, "--allowJs", "--checkJs", "--noEmit", "--strict", "--target", "es2020"];
  args.push(
    "--module",
    "commonjs",
    "--types",
    "node",
    "--typeRoots",
    join(repoRoot, "node_modules", "@types"),
  );
  const res = run(process.execPath, [...args, "--pretty", "false", ...files], { cwd: dir });
  return res.stdout;
}

function biomeLint(dir) {
  // One worker thread: Biome otherwise prints files in whatever order its workers finish.
  const args = ["lint", "--max-diagnostics=80", "--diagnostic-level=warn", "lib"];
  const res = run(biome, args, { cwd: dir, env: toolEnv({ RAYON_NUM_THREADS: "1" }) });
  return (res.stdout + res.stderr).replace(/Checked (\d+) files in [\d.]+m?s/, "Checked $1 files in 12ms");
}

function rustc() {
  const dir = copyProject("rust", makeTemp("rustc"));
  const res = run("rustc", ["--edition", "2021", "--color", "never", "inventory.rs"], { cwd: dir });
  return res.stderr;
}

const lineWith = (text, needle) => text.split("\n").find((l) => l.includes(needle));

export function diagItems() {
  const planted = plantedProject();
  const yaml = jsYamlSources();
  const checked = checkJs(yaml);
  const lint = biomeLint(yaml);
  const ts2554 = lineWith(checked, "TS2554");
  const ts2339 = lineWith(checked, "TS2339");
  const noArgs = lineWith(lint, "lint/complexity/noArguments");
  const rust = rustc();
  return [
    {
      id: "diagnostics-tsc-planted",
      kind: "diagnostics",
      hint: "tsc --noEmit",
      ext: "txt",
      source: "tsc 5.9.3 over corpus/project/src (planted type errors), --pretty false",
      content: planted.plain,
      gold: [
        gold("src/orders.ts(51,49): error TS2345", "orders.ts TS2345 canceled"),
        gold("src/report.ts(35,19): error TS2554: Expected 1 arguments, but got 2.", "TS2554 report.ts"),
        gold(
          "src/slug.ts(18,3): error TS2322: Type 'number' is not assignable to type 'string'.",
          "slug.ts TS2322",
        ),
      ],
    },
    {
      id: "terminal-tsc-pretty",
      kind: "terminal",
      hint: "tsc --pretty",
      ext: "ansi",
      source: "the same tsc run with --pretty (ANSI colours and code frames)",
      content: planted.pretty,
      gold: [
        gold("TS2554: ", "TS2554 Expected 1 arguments"),
        gold("Expected 1 arguments, but got 2.", "Expected 1 arguments"),
        gold(lineWith(planted.pretty, "Found "), "Found errors in files"),
      ],
    },
    {
      id: "diagnostics-tsc-checkjs-js-yaml",
      kind: "diagnostics",
      hint: "tsc --checkJs",
      ext: "txt",
      source: "tsc 5.9.3 --checkJs --strict over js-yaml 3.15.2 lib/ (sorted file list)",
      content: checked,
      gold: [gold(ts2554, "TS2554"), gold(ts2339, "TS2339")],
    },
    {
      id: "diagnostics-biome-lint-js-yaml",
      kind: "diagnostics",
      hint: "biome lint",
      ext: "txt",
      source: "Biome 2.6.8 lint (recommended rules, warnings and errors) over js-yaml 3.15.2 lib/",
      content: lint,
      gold: [gold(noArgs, "noArguments"), gold(lineWith(lint, "Found ") ?? "Found", "Found errors")],
    },
    {
      id: "diagnostics-rustc-planted",
      kind: "diagnostics",
      hint: "rustc",
      ext: "txt",
      source: "rustc over corpus/project/rust/inventory.rs (planted type, move and name errors)",
      content: rust,
      gold: [
        gold("error[E0308]: mismatched types", "E0308 mismatched types"),
        gold("  --> inventory.rs:19:30", "E0382 partially moved"),
        gold("error: aborting due to 3 previous errors", "aborting due to previous errors"),
      ],
    },
  ];
}
