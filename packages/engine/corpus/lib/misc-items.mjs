// grep hits over installed packages (sorted file lists, so the order never depends on the
// filesystem) and real stack traces: a Node ESM crash with an error cause from js-yaml, a
// chained CPython traceback and a Java exception with Caused by: levels. Temp and checkout paths are replaced by fixed ones.
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  copyProject,
  engineModules,
  gold,
  makeTemp,
  replaceAll,
  repoRoot,
  run,
  storePackage,
} from "./util.mjs";

/** `grep -Hn PATTERN` over the sorted files under `dirs` (relative to cwd) with a suffix. */
function grepSorted(cwd, dirs, suffix, args) {
  const files = run("find", [...dirs, "-type", "f", "-name", `*${suffix}`], { cwd })
    .stdout.split("\n")
    .filter(Boolean)
    .sort();
  return run("grep", ["-Hn", ...args, ...files], { cwd }).stdout;
}

const lineWith = (text, needle) => text.split("\n").find((l) => l.includes(needle));

function grepItems() {
  const vitestParent = dirname(realpathSync(join(engineModules, "vitest")));
  const throws = grepSorted(vitestParent, ["vitest/dist"], ".js", ["throw new"]);
  const tsParent = dirname(storePackage("typescript@5.9.3"));
  const todos = grepSorted(tsParent, ["typescript/lib"], ".js", ["-E", "TODO|FIXME"]);
  const viteParent = dirname(
    realpathSync(join(dirname(realpathSync(join(engineModules, "vitest"))), "vite")),
  );
  const envs = grepSorted(viteParent, ["vite/dist"], ".js", ["process\\.env\\."]);
  const pool = lineWith(throws, "Unknown pool");
  const rbuckton = lineWith(todos, "TODO(rbuckton)");
  const viteEnv =
    lineWith(envs, "VITE_DEBUG_FILTER") ?? envs.split("\n")[Math.floor(envs.split("\n").length / 2)];
  return [
    {
      id: "grep-vitest-throw",
      kind: "grep",
      hint: "grep -rn",
      ext: "txt",
      source: "grep -Hn 'throw new' over vitest 4.1.12 dist/*.js (sorted)",
      content: throws,
      gold: [gold(pool ?? throws.split("\n")[130], "Unknown pool")],
    },
    {
      id: "grep-typescript-todo",
      kind: "grep",
      hint: "grep -rnE 'TODO|FIXME'",
      ext: "txt",
      source: "grep -HnE 'TODO|FIXME' over typescript 5.9.3 lib/*.js (sorted)",
      content: todos,
      gold: [gold(rbuckton, "rbuckton TypeNodes isPartOfTypeNode")],
    },
    {
      id: "grep-vite-process-env",
      kind: "grep",
      hint: "grep -rn process.env",
      ext: "txt",
      source: "grep -Hn 'process.env.' over vite 8.3.8 dist/**/*.js (sorted)",
      content: envs,
      gold: [gold(viteEnv, viteEnv.includes("VITE_DEBUG_FILTER") ? "VITE_DEBUG_FILTER" : undefined)],
    },
  ];
}

function stackItems() {
  const dir = copyProject("crash", makeTemp("crash"));
  const yamlPkg = join(storePackage("js-yaml@3.15.2"), "package.json");
  const node = run(process.execPath, ["--stack-trace-limit=60", "load-config.mjs", yamlPkg], { cwd: dir });
  const py = run("python3", ["inventory_sync.py"], { cwd: dir });
  run("javac", ["ConfigLoader.java"], { cwd: dir });
  const java = run("java", ["-XX:-UsePerfData", "ConfigLoader"], { cwd: dir });
  const paths = (s) =>
    replaceAll(s, [
      [dir, "/srv/app"],
      [repoRoot, "/srv/app"],
    ]);
  return [
    {
      id: "stacktrace-node-yaml-cause",
      kind: "stacktrace",
      hint: "node",
      ext: "txt",
      source: "node 20 crash: js-yaml 3.15.2 YAMLException as the cause of a config error, deep recursion",
      content: paths(node.stderr),
      gold: [
        gold('Error: cannot load config "production"', "cannot load config"),
        gold(
          'YAMLException: bad indentation of a mapping entry in "config/production.yaml" at line 8, column 16:',
        ),
        gold(
          "at readBlockMapping (/srv/app/node_modules/.pnpm/js-yaml@3.15.2/node_modules/js-yaml/lib/js-yaml/loader.js:1142:7)",
          "readBlockMapping 1142",
        ),
      ],
    },
    {
      id: "stacktrace-python-chained",
      kind: "stacktrace",
      hint: "python3",
      ext: "txt",
      source:
        "CPython 3.11 chained traceback: JSONDecodeError in mutual recursion, re-raised as RuntimeError",
      content: paths(py.stderr),
      gold: [
        gold(
          "json.decoder.JSONDecodeError: Expecting value: line 1 column 121 (char 120)",
          "JSONDecodeError Expecting value",
        ),
        gold("RuntimeError: feed 'warehouse-eu' is not valid JSON", "RuntimeError feed warehouse-eu"),
        gold('File "/srv/app/inventory_sync.py", line 21, in parse_feed', "parse_feed line 21"),
      ],
    },
    {
      id: "stacktrace-java-caused-by",
      kind: "stacktrace",
      hint: "java",
      ext: "txt",
      source: "OpenJDK 17 uncaught exception with two Caused by: levels and a deep recursion",
      content: paths(java.stderr),
      gold: [
        gold(
          'Caused by: java.lang.NumberFormatException: For input string: "30s"',
          "NumberFormatException 30s",
        ),
        gold("invalid value for pool.idle.timeout", "pool.idle.timeout"),
        gold("at ConfigLoader.poolSettings(ConfigLoader.java:28)", "poolSettings ConfigLoader.java:28"),
      ],
    },
  ];
}

export function miscItems() {
  return [...grepItems(), ...stackItems()];
}
