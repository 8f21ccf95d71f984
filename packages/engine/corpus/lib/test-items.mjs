// Test-runner output: vitest (verbose, coloured default, JSON), node's built-in runner and
// Python's unittest, each run for real over the planted projects in corpus/project. Timings,
// start times and temp paths are replaced by fixed values; everything else is as printed.
import { join } from "node:path";
import { copyProject, engineModules, gold, makeTemp, replaceAll, run, toolEnv } from "./util.mjs";

const vitestBin = join(engineModules, ".bin", "vitest");
const VITEST_ARGS = ["run", "--globals", "--no-file-parallelism", "--maxWorkers=1"];

// Durations may be split by colour escapes (" 26\x1b[2mms"); every one becomes 1ms.
const ESC = "((?:\\x1b\\[\\d+m)*)";
function fixVitestTimes(text) {
  return text
    .replace(new RegExp(`\\b\\d+${ESC}ms\\b`, "g"), "1$1ms")
    .replace(new RegExp(`(Start at ${ESC}\\s*)\\d\\d:\\d\\d:\\d\\d`, "g"), (_, head) => `${head}09:00:00`)
    .replace(new RegExp(`(Duration ${ESC}\\s*)\\d+(\\.\\d+)?m?s`, "g"), (_, head) => `${head}1.00s`);
}

function vitest(args, env) {
  // A fresh copy per run: vitest orders files by the durations it cached on the previous run.
  const dir = makeTemp("vitest");
  copyProject("src", join(dir, "src"));
  copyProject("test", join(dir, "test"));
  const res = run(vitestBin, [...VITEST_ARGS, ...args], { cwd: dir, env });
  const paths = (s) => replaceAll(s, [[dir, "/work/shop"]]);
  return { out: paths(res.stdout), all: paths(res.stdout + res.stderr) };
}

function vitestRuns() {
  const verbose = vitest(["--reporter=verbose"]);
  const colourEnv = toolEnv({ FORCE_COLOR: "1" });
  delete colourEnv.NO_COLOR;
  const colour = vitest([], colourEnv);
  const json = vitest(["--reporter=json"]);
  const report = JSON.parse(json.out);
  report.startTime = 1793696400000;
  for (const file of report.testResults) {
    file.startTime = 1793696400000;
    file.endTime = 1793696400100;
    for (const a of file.assertionResults) a.duration = 1;
  }
  return {
    verbose: fixVitestTimes(verbose.all),
    colour: fixVitestTimes(colour.all),
    json: `${JSON.stringify(report)}\n`,
  };
}

function nodeTest() {
  const dir = copyProject("node-test", makeTemp("node-test"));
  const res = run(process.execPath, ["--test", "--test-reporter=spec", "csv.test.mjs", "semver.test.mjs"], {
    cwd: dir,
  });
  return replaceAll(res.stdout + res.stderr, [[dir, "/work/semver"]])
    .replace(/\(\d+(\.\d+)?ms\)/g, "(1.5ms)")
    .replace(/duration_ms [\d.]+/g, "duration_ms 120.5");
}

function pyUnittest() {
  const dir = copyProject("py", makeTemp("py"));
  const res = run("python3", ["-m", "unittest", "-v", "test_inventory"], { cwd: dir });
  return replaceAll(res.stdout + res.stderr, [[dir, "/work/inventory"]]).replace(
    / in \d+\.\d+s$/m,
    " in 0.004s",
  );
}

export function testItems() {
  const v = vitestRuns();
  return [
    {
      id: "test-vitest-verbose",
      kind: "test",
      hint: "vitest run --reporter=verbose",
      ext: "txt",
      source: "vitest 4.1.12 over corpus/project (65 tests, planted bugs)",
      content: v.verbose,
      gold: [
        gold("orders > cancels an order and keeps the reason", "cancels an order and keeps the reason"),
        gold("Error: order 3: cannot go from open to canceled", "cannot go from open to canceled"),
        gold("TypeError: Cannot read properties of undefined (reading 'push')", "reading push"),
        gold("slugify > numbers duplicate slugs", "numbers duplicate slugs"),
        gold("Tests  4 failed | 61 passed (65)", "Tests failed passed"),
      ],
    },
    {
      id: "terminal-vitest-colour",
      kind: "terminal",
      hint: "vitest run",
      ext: "ansi",
      source: "the same vitest run with FORCE_COLOR=1 (ANSI escapes)",
      content: v.colour,
      gold: [
        gold("rounds a third of a euro down when allocating", "rounds a third of a euro"),
        gold("cannot go from open to canceled", "cannot go from open to canceled"),
      ],
    },
    {
      id: "json-vitest-report",
      kind: "json",
      hint: "vitest run --reporter=json",
      ext: "json",
      source: "the same vitest run, JSON reporter (durations fixed)",
      content: v.json,
      gold: [
        gold("orders groups orders by customer", "groups orders by customer"),
        gold("order 3: cannot go from open to canceled", "cannot go from open to canceled"),
      ],
    },
    {
      id: "test-node-test-spec",
      kind: "test",
      hint: "node --test",
      ext: "txt",
      source: "node 20 built-in test runner (spec reporter) over two planted test files",
      content: nodeTest(),
      gold: [
        gold("orders 1.0.0-beta.2 before 1.0.0-beta.11", "beta.2 beta.11"),
        gold("TypeError [Error]: invalid version: 1.2.3+build.7", "invalid version build metadata"),
        gold("handles CRLF line endings", "CRLF"),
      ],
    },
    {
      id: "test-python-unittest",
      kind: "test",
      hint: "python3 -m unittest -v",
      ext: "txt",
      source: "CPython 3.11 unittest -v over a planted inventory module (46 tests)",
      content: pyUnittest(),
      gold: [
        gold(
          "FAIL: test_release_more_than_reserved_is_refused",
          "test_release_more_than_reserved_is_refused",
        ),
        gold("AssertionError: ValueError not raised", "ValueError not raised"),
        gold("FAILED (failures=1)", "FAILED failures"),
      ],
    },
  ];
}
