// Builds the Claude Desktop bundle, dist/caveman-mcp.mcpb, from the app's tsup output:
//   dist/mcpb/manifest.json      manifest_version 0.3, read by Desktop and by `mcpb validate`
//   dist/mcpb/server/cli.mjs     dist/cli.js re-bundled with better-sqlite3 replaced (below)
//   dist/mcpb/server/engine-worker.js  the engine's worker-thread script, which the server loads
//                                from beside itself (an ESM file: server/package.json says so)
//   dist/mcpb/server/engine.js   the engine, which the server and the worker load from beside
//                                themselves on first use (the app's build split it off)
//   dist/mcpb/LICENSE
// Desktop runs the server with its own Node (22 or later), where nothing native can be built, so
// the bundle ships no better-sqlite3 and no node_modules: the store uses node:sqlite (Node 22.13
// and later, chosen automatically). On an older Node the better-sqlite3 stand-in throws when the
// store probes it, and the server falls back to keeping originals in memory, saying so on stderr.
// Runs after tsup in `build`; needs no network (esbuild and @anthropic-ai/mcpb are devDependencies).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const appCli = join(appDir, "dist", "cli.js");
const appWorker = join(appDir, "dist", "engine-worker.js");
const appEngine = join(appDir, "dist", "engine.js");
const stage = join(appDir, "dist", "mcpb");
const output = join(appDir, "dist", "caveman-mcp.mcpb");

function fail(message) {
  process.stderr.write(`build-mcpb: ${message}\n`);
  process.exit(1);
}

for (const file of [appCli, appWorker, appEngine])
  if (!existsSync(file)) fail(`${file} is missing: run tsup first (the app's build does).`);

const pkg = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8"));

// The store imports better-sqlite3 statically but touches its binding only in `new Database`
// (the driver's probe). This stand-in keeps the import working without the package and fails
// that probe the way a missing binding does, so the store's fallback logic runs unchanged.
const noBetterSqlite = {
  name: "caveman-no-better-sqlite3",
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3$/ }, () => ({
      path: "better-sqlite3",
      namespace: "caveman-mcpb",
    }));
    b.onLoad({ filter: /.*/, namespace: "caveman-mcpb" }, () => ({
      loader: "js",
      contents: [
        "export default function Database() {",
        "  const err = new Error('the Claude Desktop bundle ships no better-sqlite3; SQLite needs node:sqlite (Node 22.13 or later), this is Node ' + process.version);",
        "  err.code = 'MODULE_NOT_FOUND';",
        "  throw err;",
        "}",
      ].join("\n"),
    }));
  },
};

rmSync(stage, { recursive: true, force: true });
rmSync(output, { force: true });
mkdirSync(join(stage, "server"), { recursive: true });
const bundleOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  legalComments: "eof",
  logLevel: "warning",
  plugins: [noBetterSqlite],
};
await build({ ...bundleOptions, entryPoints: [appCli], outfile: join(stage, "server", "cli.mjs") });
// The server starts its engine workers from `new URL("./engine-worker.js", import.meta.url)`.
await build({
  ...bundleOptions,
  entryPoints: [appWorker],
  outfile: join(stage, "server", "engine-worker.js"),
});
// Both load the engine from `new URL("./engine.js", import.meta.url)` when it is first called.
await build({ ...bundleOptions, entryPoints: [appEngine], outfile: join(stage, "server", "engine.js") });
writeFileSync(join(stage, "server", "package.json"), `${JSON.stringify({ type: "module" })}\n`);
copyFileSync(join(appDir, "..", "..", "LICENSE"), join(stage, "LICENSE"));

/** A placeholder Desktop fills when it starts the server: ${__dirname}, ${user_config.<key>}. */
const desktop = (name) => `\${${name}}`;

const manifest = {
  manifest_version: "0.3",
  name: "caveman-mcp",
  display_name: "caveman-mcp",
  version: pkg.version,
  description: "Lossless edit tools and recoverable compression of tool output.",
  long_description:
    "caveman-mcp compresses long tool output (logs, diffs, JSON, grep results) into a shorter view with " +
    "markers; caveman_retrieve returns the original byte-exact. Its be-* tools edit files under the " +
    "project directory you choose, each edit undoable. Originals are kept in ~/.caveman/ccr.db (SQLite).",
  author: { name: "caveman-mcp contributors" },
  license: "MIT",
  keywords: ["compression", "context", "edit", "coding"],
  server: {
    type: "node",
    entry_point: "server/cli.mjs",
    mcp_config: {
      command: "node",
      args: [
        `${desktop("__dirname")}/server/cli.mjs`,
        "--root",
        desktop("user_config.project_dir"),
        "--tools",
        desktop("user_config.tools"),
      ],
      env: {},
    },
  },
  user_config: {
    project_dir: {
      type: "directory",
      title: "Project directory",
      description:
        "The directory the edit tools may read and change (required: the server never edits your whole home).",
      required: true,
    },
    tools: {
      type: "string",
      title: "Tool families",
      description: "Comma-separated: compress, retrieve (caveman_retrieve alone), edit.",
      default: "compress,edit",
      required: false,
    },
  },
  compatibility: {
    platforms: ["darwin", "win32", "linux"],
    runtimes: { node: ">=22.13.0" },
  },
};
writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);

// The CLI's pack validates the manifest, honours .mcpbignore and writes the zip; its entry is not
// exported, so it is found beside the package's main module.
const mcpbCli = join(
  dirname(createRequire(join(appDir, "package.json")).resolve("@anthropic-ai/mcpb")),
  "cli",
  "cli.js",
);
const packed = spawnSync(process.execPath, [mcpbCli, "pack", stage, output], { encoding: "utf8" });
if (packed.status !== 0 || !existsSync(output)) {
  fail(`mcpb pack failed (exit ${packed.status}):\n${packed.stdout}\n${packed.stderr}`);
}
process.stderr.write(`build-mcpb: ${output} (${statSync(output).size} bytes)\n`);
