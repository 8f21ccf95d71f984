// `pnpm --filter @caveman/ccr-store bench`: puts and gets per second for memory and for the SQLite
// backend on each driver, in one table. better-sqlite3 and memory run under this Node; node:sqlite
// needs Node 22.13+, so when this Node lacks it the bench runs those rows under a newer Node: the
// one in CAVEMAN_BENCH_NODE, else the Node 24 the Node matrix installs (.cache/node-matrix, see
// tooling/scripts/node-matrix.sh). Imports the built dist/ (turbo's bench task builds first).
// Prints the table and records it under the "ccr-store" section.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, writeResults } from "@caveman/bench";
import { nodeHasSqlite } from "../dist/sqlite.js";

const here = dirname(fileURLToPath(import.meta.url));
const rowsScript = join(here, "rows.mjs");
const run = (nodeBin, backends) =>
  JSON.parse(
    execFileSync(nodeBin, [rowsScript, ...backends], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );

function newerNode() {
  const candidates = [
    process.env.CAVEMAN_BENCH_NODE,
    join(here, "..", "..", "..", ".cache", "node-matrix", "node-24.22.3", "package", "bin", "node"),
  ];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

const rows = [];
if (nodeHasSqlite(process.version)) {
  rows.push(...run(process.execPath, ["memory", "node:sqlite", "better-sqlite3"]));
} else {
  rows.push(...run(process.execPath, ["memory", "better-sqlite3"]));
  const other = newerNode();
  if (other === null) {
    process.stderr.write(
      "ccr-store bench: no Node 22.13+ for the node:sqlite rows; set CAVEMAN_BENCH_NODE or run tooling/scripts/node-matrix.sh once\n",
    );
  } else rows.push(...run(other, ["node:sqlite"]));
}
const order = (r) =>
  `${r.size === "1 KB" ? 0 : 1}${["memory", "better-sqlite3", "node:sqlite"].indexOf(r.backend)}${r.processes}`;
rows.sort((a, b) => order(a).localeCompare(order(b)));
printTable(
  "ccr-store: puts and gets per second by backend (SQLite WAL, synchronous=NORMAL; 2 processes = aggregate)",
  rows,
);
writeResults("ccr-store", rows);
