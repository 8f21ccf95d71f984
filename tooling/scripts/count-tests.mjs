// Sums every package's vitest JSON report (test-results.json) into the one plain line CI reads:
// "N passed, N failed". Exits 1 when a report is unreadable, when no test ran at all, or (with
// CI set) when any test was skipped: CI has every server and binary, so a skip hides a failure.
//   node tooling/scripts/count-tests.mjs [--label <run>]   --label prefixes the line (an interim count)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const groups = ["packages", "apps", "npm", "npm/platforms", "tooling", "tests"];
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
const at = process.argv.indexOf("--label");
const label = at > 0 ? `${process.argv[at + 1]}: ` : "";
for (const group of groups) {
  const base = join(root, group);
  if (!existsSync(base)) continue;
  for (const name of readdirSync(base).sort()) {
    const file = join(base, name, "test-results.json");
    if (!existsSync(file)) continue;
    try {
      const r = JSON.parse(readFileSync(file, "utf8"));
      passed += r.numPassedTests ?? 0;
      failed += r.numFailedTests ?? 0;
      // A file that fails to load has no failed tests but one failed suite: count it as a failure.
      if ((r.numFailedTests ?? 0) === 0) failed += r.numFailedTestSuites ?? 0;
      skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      process.stderr.write(`${group}/${name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed\n`);
    } catch (e) {
      broken = true;
      process.stderr.write(`${file}: unreadable (${e.message})\n`);
    }
  }
}
// The Node matrix (tooling/scripts/node-matrix.sh) leaves one report per Node line and suite.
const matrix = join(root, ".cache", "node-matrix", "results");
if (existsSync(matrix)) {
  for (const name of readdirSync(matrix)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    try {
      const r = JSON.parse(readFileSync(join(matrix, name), "utf8"));
      passed += r.numPassedTests ?? 0;
      failed += (r.numFailedTests ?? 0) || (r.numFailedTestSuites ?? 0) || (r.numTotalTests ? 0 : 1);
      skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      process.stderr.write(`node-matrix/${name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed\n`);
    } catch (e) {
      broken = true;
      process.stderr.write(`${join(matrix, name)}: unreadable (${e.message})\n`);
    }
  }
}
const inCi = ["true", "1"].includes((process.env.CI ?? "").toLowerCase());
if (skipped > 0 && inCi) process.stderr.write(`${skipped} tests skipped in CI: each is a failure here\n`);
process.stdout.write(`${label}${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
process.exit(broken || passed === 0 || (skipped > 0 && inCi) ? 1 : 0);
