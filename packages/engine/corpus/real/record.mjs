#!/usr/bin/env node
// Records the real corpus once: real tools run on real projects (public repositories cloned at
// the commit each item names) and real programs driven with real traffic on loopback. Writes
// corpus/real/items/* and corpus/real/manifest.json, keeping the gold answers already written by
// hand into the manifest (a re-recorded item whose gold no longer occurs in it is reported). CI
// never runs this: the bench and the tests only read what it recorded.
//
//   node corpus/real/record.mjs --mirror <dir> [--only <id>[,<id>...]] [--keep]
//
// <dir> holds each project as `<owner>+<name>/repo`, a git directory with its history (the
// snapshots the recording machine fetched). Needs git, node/npm (the npm registry), cargo,
// javac/javadoc, python3 with pytest, flask, requests, pydantic and docutils, redis-server,
// PostgreSQL 15, sqlite3 and curl. --keep leaves the scratch root for inspection.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gitRecipes } from "./lib/recipes-git.mjs";
import { toolRecipes } from "./lib/recipes-tools.mjs";
import { serviceRecipes } from "./lib/services.mjs";
import {
  cloneProject,
  ensureDir,
  PROJECTS,
  removeScratch,
  sanitize,
  scratchRoot,
  sh,
  standaloneCargo,
} from "./lib/shell.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..", "..", "..", "..");
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const mirror = arg("mirror");
if (!mirror) {
  process.stderr.write("usage: node corpus/real/record.mjs --mirror=<dir> [--only=<id,...>] [--keep]\n");
  process.exit(2);
}
const only = arg("only")?.split(",");
/** Items a service run leaves behind (the psql table, the flaskr database), recorded as tables. */
const EXTRA = [
  {
    id: "table-psql-accounts",
    kind: "table",
    project: null,
    cmd: 'psql -c "select aid, bid, abalance, filler from pgbench_accounts where aid <= 400 order by aid"',
    hint: "psql",
    ext: "txt",
    from: "log-postgres-durations",
  },
  {
    id: "table-sqlite-posts",
    kind: "table",
    project: "flask",
    cmd: 'sqlite3 -header -column instance/flaskr.sqlite "select id, author_id, created, title from post order by id"',
    hint: "sqlite3",
    ext: "txt",
    from: "log-flaskr-werkzeug",
  },
];
const recipes = [...gitRecipes, ...toolRecipes, ...serviceRecipes];
const MAX_BYTES = 400 * 1024;

const root = scratchRoot();
const tools = ensureDir(join(root, "tools"));
const ctx = { root, tools, dirs: {}, extra: {} };

function setup() {
  for (const name of Object.keys(PROJECTS)) ctx.dirs[name] = cloneProject(mirror, root, name);
  ctx.dirs.caveman = repoRoot;
  ctx.dirs.scratch = ensureDir(join(root, "scratch"));
  standaloneCargo(ctx.dirs.semver);
  standaloneCargo(join(ctx.dirs.regex, "regex-syntax"));
  sh("npm install --no-audit --no-fund --loglevel=error", { cwd: ctx.dirs.express });
  sh(
    "npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error eslint@9.39.5 globals@17.14.0 pino@10.4.0",
    { cwd: tools },
  );
  const m2 = join(
    process.env.HOME ?? "",
    ".m2",
    "repository",
    "com",
    "google",
    "errorprone",
    "error_prone_annotations",
    "2.38.0",
    "error_prone_annotations-2.38.0.jar",
  );
  ctx.env = {
    TSC: join(repoRoot, "node_modules", ".bin", "tsc"),
    BIOME: join(repoRoot, "node_modules", ".bin", "biome"),
    ESLINT: join(tools, "node_modules", ".bin", "eslint"),
    PYTEST: "python3 -m pytest",
    GSON_CP: m2,
    TYPES: join(repoRoot, "packages", "engine", "node_modules", "@types"),
  };
  // What Maven's templating would generate: GsonBuildConfig with the pom's version.
  const template = join(
    ctx.dirs.gson,
    "gson",
    "src",
    "main",
    "java-templates",
    "com",
    "google",
    "gson",
    "internal",
    "GsonBuildConfig.java",
  );
  const version = /<version>([^<]+)<\/version>/.exec(
    readFileSync(join(ctx.dirs.gson, "gson", "pom.xml"), "utf8"),
  )[1];
  writeFileSync(
    join(ensureDir(join(root, "gson-gen")), "GsonBuildConfig.java"),
    readFileSync(template, "utf8").replace(/\$\{project\.version\}/g, version),
  );
  // gson classes and the trace driver (diag-gson-javac-doclint builds gson-out-x as well).
  sh(
    `javac -nowarn -cp ${m2} -d ../gson-out-b $(find gson/src/main/java -name '*.java' ! -name module-info.java) ../gson-gen/GsonBuildConfig.java >/dev/null 2>&1; javac -cp ../gson-out-b -d ../traces ${join(here, "lib", "java", "GsonTraces.java")}`,
    { cwd: ctx.dirs.gson },
  );
}

async function record(recipe) {
  const cwdBase = recipe.project ? ctx.dirs[recipe.project] : ctx.dirs.scratch;
  const opts = { cwd: cwdBase, extraEnv: ctx.env };
  if (recipe.before) sh(recipe.before, opts);
  const cwd = recipe.cwd ? join(cwdBase, recipe.cwd) : cwdBase;
  let text;
  if (recipe.run) text = await recipe.run(ctx);
  else if (recipe.from) text = ctx.extra[recipe.id] ?? "";
  else {
    // A JSON document or JSON lines is what a tool writes to stdout; its progress lines go to stderr.
    const quiet = recipe.kind === "json" || recipe.kind === "ndjson";
    text = sh(recipe.env ? `${recipe.env} ${recipe.cmd}` : recipe.cmd, {
      cwd,
      extraEnv: ctx.env,
      stderr: !quiet,
    });
  }
  if (recipe.after) sh(recipe.after, opts);
  text = sanitize(text, root, repoRoot);
  const cut = Buffer.byteLength(text) > MAX_BYTES;
  if (cut) text = text.slice(0, cutAtLine(text, MAX_BYTES));
  return { text, cut };
}

/** Index just past the last whole line within `max` bytes (recordings keep whole lines). */
function cutAtLine(text, max) {
  const cut = Buffer.from(text).subarray(0, max).toString("utf8");
  return cut.lastIndexOf("\n") + 1;
}

function commitOf(recipe) {
  if (!recipe.project || recipe.project === "scratch") return undefined;
  if (recipe.project === "caveman")
    return {
      repo: "caveman-mcp (this repository)",
      commit: sh("git rev-parse HEAD", { cwd: repoRoot }).trim(),
    };
  return { repo: PROJECTS[recipe.project].repo, commit: PROJECTS[recipe.project].commit };
}

const manifestFile = join(here, "manifest.json");
const old = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, "utf8")) : { items: [] };
const oldById = new Map(old.items.map((i) => [i.id, i]));
setup();
const entries = new Map(old.items.map((i) => [i.id, i]));
for (const recipe of [...recipes, ...EXTRA]) {
  if (only && !only.includes(recipe.id) && !(recipe.from && only.includes(recipe.from))) continue;
  const { text, cut } = await record(recipe);
  if (text.trim() === "") {
    process.stderr.write(`${recipe.id}: empty output, skipped\n`);
    continue;
  }
  const file = `items/${recipe.id}.${recipe.ext}`;
  writeFileSync(join(here, file), text);
  const gold = oldById.get(recipe.id)?.gold ?? [];
  const stale = gold.filter((g) => !text.includes(g.text));
  if (stale.length > 0)
    process.stderr.write(
      `${recipe.id}: gold no longer in the item: ${stale.map((g) => g.text).join(" | ")}\n`,
    );
  entries.set(recipe.id, {
    id: recipe.id,
    kind: recipe.kind,
    hint: recipe.hint ?? recipe.cmd,
    file,
    command: recipe.cmd,
    ...(commitOf(recipe) ? { project: commitOf(recipe) } : {}),
    source: `${recipe.cwd ? `run in ${recipe.cwd}` : "run at the project root"}${cut ? `; cut at the last line end within ${MAX_BYTES / 1024} KB` : ""}`,
    bytes: Buffer.byteLength(text),
    sha256: createHash("sha256").update(text).digest("hex"),
    gold,
  });
  process.stdout.write(`${recipe.id}: ${Buffer.byteLength(text)} bytes\n`);
}
const order = [...recipes, ...EXTRA].map((r) => r.id);
const items = [...entries.values()]
  .filter((e) => order.includes(e.id))
  .sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
const description =
  "Real tool output on real projects, recorded once by corpus/real/record.mjs; gold answers by hand.";
writeFileSync(manifestFile, `${JSON.stringify({ description, items }, null, 2)}\n`);
if (!process.argv.includes("--keep")) removeScratch(root);
else process.stdout.write(`scratch root kept: ${root}\n`);
