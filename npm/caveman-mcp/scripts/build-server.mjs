// Lays out the server for the launcher and for this host's platform package:
//   npm/platforms/<host target>/dist/cli.mjs                          the bundled server's entry
//   npm/platforms/<host target>/dist/{engine,hook}-worker.js          the worker-thread scripts
//   npm/platforms/<host target>/dist/engine.js                        the engine, loaded on first use
//   npm/platforms/<host target>/dist/chunk-*.js                       the chunks they load on use
//   npm/platforms/<host target>/dist/node-v<ABI>/better_sqlite3.node  its prebuilt binding
//   npm/caveman-mcp/dist/portable/cli.mjs (+ the same files, build.json) the portable fallback copy
// The server is apps/caveman-mcp's bundle re-bundled with better-sqlite3's JavaScript inlined,
// so it needs no node_modules at all; the binding is loaded through better-sqlite3's
// nativeBinding option from the path in CAVEMAN_SQLITE_BINDING. Only the host target can be
// built here (the binding is compiled for this OS, CPU, libc and Node ABI); CI builds the
// others on one runner each (README, "Building the platform packages").
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import {
  BINDING_ENV,
  bindingFile,
  gatherHost,
  PORTABLE_SERVER_FILE,
  SERVER_FILE,
  targetsForHost,
} from "../.cache/repo-lib/index.js";

const launcherDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const appDir = resolve(launcherDir, "..", "..", "apps", "caveman-mcp");
const appCli = join(appDir, "dist", "cli.js");
// Entries the server loads from beside itself (`new URL(..., import.meta.url)`): the worker-thread
// scripts, and the engine, which the app's build split off so that starting never reads it.
const BESIDE_FILES = ["engine-worker.js", "hook-worker.js", "engine.js"];
const appBeside = BESIDE_FILES.map((f) => join(appDir, "dist", f));

function fail(message) {
  process.stderr.write(`build-server: ${message}\n`);
  process.exit(1);
}

for (const file of [appCli, ...appBeside])
  if (!existsSync(file)) fail(`${file} is missing: build @caveman/caveman-mcp-app first (turbo does).`);

const host = gatherHost();
const targets = targetsForHost(host.platform, host.arch, host.libc);
if (targets.length !== 1) {
  fail(
    `cannot name this host's target (${host.platform} ${host.arch} libc ${host.libc}): ${targets.length} match`,
  );
}
const target = targets[0];

const sqliteDir = dirname(createRequire(join(appDir, "package.json")).resolve("better-sqlite3/package.json"));
const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, "package.json"), "utf8")).version;
const binding = join(sqliteDir, "build", "Release", "better_sqlite3.node");
if (!existsSync(binding)) fail(`${binding} is missing: better-sqlite3 was not built for this host.`);

// The app's bundle already declares a top-level `require`; esbuild renames that one, and
// this banner gives the inlined CommonJS (better-sqlite3) a real require for fs, path and
// the .node file, plus the bundle's own directory for the binding shim below.
const banner = [
  "import { createRequire as __cavemanLauncherRequire } from 'node:module';",
  "import { fileURLToPath as __cavemanFileURLToPath } from 'node:url';",
  "const require = __cavemanLauncherRequire(import.meta.url);",
  "const __cavemanBundleDir = __cavemanFileURLToPath(new URL('.', import.meta.url));",
].join("\n");

// better-sqlite3 finds its binding through the `bindings` package when the server passes no
// nativeBinding, by walking the stack to its own package root, which a bundle no longer has.
// This replacement takes the binding the launcher chose (CAVEMAN_SQLITE_BINDING: the platform
// package's, or an ordinary better-sqlite3's on the portable path), else the one beside the
// bundle for the running Node's ABI. So the layout works whether or not the server itself
// reads CAVEMAN_SQLITE_BINDING; when it does, nativeBinding bypasses this shim altogether.
const bindingShim = {
  name: "caveman-binding-shim",
  setup(b) {
    b.onResolve({ filter: /^bindings$/ }, () => ({ path: "bindings", namespace: "caveman-binding" }));
    b.onLoad({ filter: /.*/, namespace: "caveman-binding" }, () => ({
      loader: "js",
      contents: [
        "module.exports = function bindings(name) {",
        `  var chosen = process.env[${JSON.stringify(BINDING_ENV)}];`,
        "  if (chosen) return require(chosen);",
        "  var file = __cavemanBundleDir + 'node-v' + process.versions.modules + '/' + name;",
        "  try {",
        "    return require(file);",
        "  } catch (err) {",
        "    if (!err || err.code !== 'MODULE_NOT_FOUND') throw err;",
        "    var why = new Error('this caveman-mcp build carries no better-sqlite3 binding for Node ABI ' + process.versions.modules + ' (' + process.version + ')');",
        "    why.code = 'MODULE_NOT_FOUND';",
        "    why.fix = 'install caveman-mcp with its platform package (npm install without --omit=optional)';",
        "    throw why;",
        "  }",
        "};",
      ].join("\n"),
    }));
  },
};

const platformDir = resolve(launcherDir, "..", "platforms", target.id);
const platformDist = join(platformDir, "dist");
// Replace only the server and this ABI's binding: a CI job that runs the build once per Node
// version collects one node-v<ABI> directory per run in the same package.
const server = join(platformDir, SERVER_FILE);
const platformBinding = join(platformDir, bindingFile(host.abi));
/** The server's JavaScript in a dist directory: the entry, the workers and their chunks. */
const isServerJs = (name) =>
  name === "cli.mjs" || BESIDE_FILES.includes(name) || /^[\w-]+-[A-Z0-9]{8}\.js$/.test(name);
rmSync(dirname(platformBinding), { recursive: true, force: true });
mkdirSync(platformDist, { recursive: true });
for (const name of readdirSync(platformDist)) if (isServerJs(name)) rmSync(join(platformDist, name));
// Split like the app's own build (a hook that passes loads the entry and the gate, not the
// engine); the entry is cli.mjs (SERVER_FILE), the others keep their names, chunks are .js in
// a "type": "module" package. Nothing imports an entry (engine.js is `require`d by a computed
// path, which esbuild leaves alone), so renaming one is safe.
await build({
  entryPoints: Object.fromEntries([
    ["cli", appCli],
    ...BESIDE_FILES.map((f, i) => [f.replace(/\.js$/, ""), appBeside[i]]),
  ]),
  outdir: platformDist,
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  banner: { js: banner },
  legalComments: "eof",
  logLevel: "warning",
  plugins: [bindingShim],
});
renameSync(join(platformDist, "cli.js"), server);

mkdirSync(dirname(platformBinding), { recursive: true });
copyFileSync(binding, platformBinding);
copyFileSync(join(sqliteDir, "LICENSE"), join(platformDist, "better-sqlite3.LICENSE"));

const portable = join(launcherDir, PORTABLE_SERVER_FILE);
rmSync(dirname(portable), { recursive: true, force: true });
mkdirSync(dirname(portable), { recursive: true });
for (const name of readdirSync(platformDist))
  if (isServerJs(name)) copyFileSync(join(platformDist, name), join(dirname(portable), name));
copyFileSync(join(sqliteDir, "LICENSE"), join(dirname(portable), "better-sqlite3.LICENSE"));
const appVersion = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")).version;
const info = { server: appVersion, betterSqlite3: sqliteVersion, builtOn: target.id, abi: host.abi };
writeFileSync(join(dirname(portable), "build.json"), `${JSON.stringify(info, null, 2)}\n`);

// Smoke test: the laid-out server answers --version, and opens its SQLite store through
// the binding beside it (no CAVEMAN_SQLITE_BINDING, so the shim must find it by layout).
const smoke = spawnSync(process.execPath, [server, "--version"], { encoding: "utf8", timeout: 30_000 });
if (smoke.status !== 0) fail(`the built server did not answer --version:\n${smoke.stderr}`);
const scratch = mkdtempSync(join(tmpdir(), "cm-build-"));
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "build", version: "1" } },
};
// A compress large enough to run in an engine worker proves the worker file was laid out too.
const logLines = Array.from({ length: 2000 }, (_, i) => `2026-01-01T00:00:00Z INFO request ${i % 5} ok`);
const compressCall = {
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "caveman_compress", arguments: { input: logLines.join("\n") } },
};
// stdin stays open until the compress is answered: ending it at once would start the server's
// shutdown, and on a busy machine the call could then outlast the grace and come back
// cave_shutting_down. The engine deadline is this check's own, far above any load.
const session = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [
      server,
      "--db",
      join(scratch, "ccr.db"),
      "--chip-dir",
      join(scratch, "chips"),
      "--root",
      scratch,
      "--engine-timeout-ms",
      "120000",
    ],
    { env: { ...process.env, HOME: scratch, [BINDING_ENV]: "" }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
  child.stdout.on("data", (c) => {
    stdout += c.toString("utf8");
    if (stdout.split("\n").some((line) => line.includes('"id":2'))) child.stdin.end();
  });
  child.stderr.on("data", (c) => {
    stderr += c.toString("utf8");
  });
  child.on("close", (status) => {
    clearTimeout(timer);
    resolve({ status, stdout, stderr });
  });
  child.stdin.write(`${JSON.stringify(initialize)}\n${JSON.stringify(compressCall)}\n`);
});
const lines = session.stdout.split("\n");
const answered = lines.some((line) => line.includes('"id":1') && line.includes("serverInfo"));
const compressed = lines.some((line) => line.includes('"id":2') && line.includes('recovery_handle \\"ccr_'));
if (session.status !== 0 || !answered || !compressed || !existsSync(join(scratch, "ccr.db"))) {
  fail(
    `the built server did not answer initialize and a compress (in an engine worker) on its SQLite store (exit ${session.status}):\n${session.stdout}\n${session.stderr}`,
  );
}
rmSync(scratch, { recursive: true, force: true });
process.stderr.write(
  `build-server: ${target.id} (Node ABI ${host.abi}) filled; server ${smoke.stdout.trim()}, better-sqlite3 ${sqliteVersion}\n`,
);
