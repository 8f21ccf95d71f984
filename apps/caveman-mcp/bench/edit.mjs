// Edit latency over real stdio, side by side with the official MCP filesystem server
// (@modelcontextprotocol/server-filesystem, pinned as a devDependency): a one-line exact-text
// replace on a 100,000-line file (caveman-mcp be-replace `old`/`content` vs filesystem
// `edit_file`), plus caveman-mcp's replace by line range. Each server edits its own copy of the
// same file; calls are interleaved so both see the same machine load. Each call swaps one line
// between two texts, so every call matches exactly once. Figures go to bench/results/edit-stdio.json.
// Before/after in one run: CAVEMAN_BENCH_BASELINE_CLI=<another build's dist/cli.js> adds that
// build's two rows, interleaved with the others.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, summarize, writeResults } from "@caveman/bench";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const LINES = 100_000;
const ROUNDS = 40;
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const FS_SERVER = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);

const base = realpathSync(mkdtempSync(join(tmpdir(), "caveman-edit-bench-")));
const ours = join(base, "caveman");
const theirs = join(base, "filesystem");
const before = join(base, "baseline");
const BASELINE = process.env.CAVEMAN_BENCH_BASELINE_CLI;
let text = "";
for (let i = 1; i <= LINES; i++) text += `export const value${i} = computeSomething(${i}, "item ${i}");\n`;
for (const dir of [ours, theirs, before]) {
  mkdirSync(dir);
  writeFileSync(join(dir, "huge.ts"), text);
}

async function connect(command, args, env = {}) {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env.PATH ?? "", HOME: base, ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "edit-bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const cavemanAt = (cli, root) =>
  connect(process.execPath, [cli], {
    CAVEMAN_ROOTS: root,
    CAVEMAN_CCR_DB: `${root}.db`,
    CAVEMAN_CHIP_DIR: `${root}.chips`,
  });
const caveman = await cavemanAt(CLI, ours);
const baseline = BASELINE ? await cavemanAt(BASELINE, before) : null;
const filesystem = await connect(process.execPath, [FS_SERVER, theirs]);

const texts = [
  'export const value60000 = computeSomething(60000, "item 60000");',
  "export const value60000 = 'replaced';",
];
const side = { caveman: 0, filesystem: 0, range: 0, baseline: 0 };

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content).slice(0, 300)}`);
}

const ops = {
  "caveman-mcp be-replace (exact text)": () => {
    const from = texts[side.caveman];
    side.caveman = 1 - side.caveman;
    return call(caveman, "be-replace", { path: "huge.ts", old: from, content: texts[side.caveman] });
  },
  "filesystem edit_file (exact text)": () => {
    const from = texts[side.filesystem];
    side.filesystem = 1 - side.filesystem;
    return call(filesystem, "edit_file", {
      path: join(theirs, "huge.ts"),
      edits: [{ oldText: from, newText: texts[side.filesystem] }],
    });
  },
  "caveman-mcp be-replace (line range)": () =>
    call(caveman, "be-replace", {
      path: "huge.ts:50000",
      content: `export const changed = ${side.range++};`,
    }),
};
if (baseline) {
  ops["baseline build: be-replace (exact text)"] = () => {
    const from = texts[side.baseline];
    side.baseline = 1 - side.baseline;
    return call(baseline, "be-replace", { path: "huge.ts", old: from, content: texts[side.baseline] });
  };
  ops["baseline build: be-replace (line range)"] = () =>
    call(baseline, "be-replace", {
      path: "huge.ts:50000",
      content: `export const changed = ${side.range++};`,
    });
}

try {
  const samples = Object.fromEntries(Object.keys(ops).map((k) => [k, []]));
  for (const fn of Object.values(ops)) for (let i = 0; i < 2; i++) await fn(); // warm up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(ops)) {
      const t0 = performance.now();
      await fn();
      samples[name].push(performance.now() - t0);
    }
  }
  const rows = Object.entries(samples).map(([operation, s]) => {
    const t = summarize(s);
    return { operation, n: t.n, p50_ms: t.p50Ms, p99_ms: t.p99Ms, mean_ms: t.meanMs };
  });
  const ratio = rows[1].p50_ms / rows[0].p50_ms;
  printTable(
    `one-line edit of a ${LINES.toLocaleString("en")}-line file over stdio (filesystem / caveman-mcp p50: ${ratio.toFixed(2)}x)`,
    rows,
  );
  writeResults("edit-stdio", { file_lines: LINES, rounds: ROUNDS, rows, filesystem_over_caveman_p50: ratio });
} finally {
  await caveman.close();
  await filesystem.close();
  await baseline?.close();
  rmSync(base, { recursive: true, force: true });
}
