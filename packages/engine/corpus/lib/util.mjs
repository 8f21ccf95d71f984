// Shared helpers for the corpus generator: where the sources live, how tools are run with a
// pinned environment, and how run-specific noise (temp paths, timings) is replaced by fixed
// values so that every regeneration on this machine yields the same bytes.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const corpusDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const engineDir = resolve(corpusDir, "..");
export const repoRoot = resolve(engineDir, "..", "..");
export const engineModules = join(engineDir, "node_modules");
const pnpmStore = join(repoRoot, "node_modules", ".pnpm");
export const pyStdlib = "/root/.pyenv/versions/3.11.7/lib/python3.11";

/** Directory of an installed package version inside the pnpm store. */
export function storePackage(nameAtVersion) {
  const at = nameAtVersion.lastIndexOf("@");
  const name = nameAtVersion.slice(0, at);
  const dir = nameAtVersion.replace("/", "+");
  return join(pnpmStore, dir, "node_modules", name);
}

const temps = [];

/** A fresh temp directory (real path, so tools print the same prefix we later replace). */
export function makeTemp(label) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `caveman-corpus-${label}-`)));
  temps.push(dir);
  return dir;
}

/** Remove every temp directory made by makeTemp. */
export function removeTemps() {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Fixed environment: no colours unless asked, UTC, C locale, no CI-specific output. */
export function toolEnv(extra = {}) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/root",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    TERM: "dumb",
    ...extra,
  };
}

/** Run a tool to completion; a non-zero exit is expected for tools that report failures. */
export function run(cmd, args, { cwd, env, input, timeoutMs = 120_000 } = {}) {
  const res = spawnSync(cmd, args, {
    cwd,
    env: env ?? toolEnv(),
    input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: timeoutMs,
  });
  if (res.error) throw new Error(`${cmd} ${args.join(" ")} failed to start: ${res.error.message}`);
  return { stdout: res.stdout, stderr: res.stderr, status: res.status };
}

/** Replace every occurrence of each [from, to] pair (plain strings, longest first). */
export function replaceAll(text, pairs) {
  let out = text;
  for (const [from, to] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    out = out.split(from).join(to);
  }
  return out;
}

/** Deterministic PRNG (mulberry32) for scripted traffic and sampling. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Keep the first `n` lines of a text (system logs only ever grow at the end). */
export function headLines(text, n) {
  const lines = text.split("\n");
  return `${lines.slice(0, n).join("\n")}\n`;
}

/** `cat -n` style gutter, as an agent's Read tool shows a file. */
export function withGutter(text) {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  return `${lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n")}\n`;
}

/** A gold answer: `text` must occur verbatim in the item; `query` is the retrieve query. */
export function gold(text, query, note) {
  const g = { text };
  if (query !== undefined) g.query = query;
  if (note !== undefined) g.note = note;
  return g;
}

/** Copy corpus/project/<sub> into `dest`, dropping the `.txt` that keeps linters off the planted bugs. */
export function copyProject(sub, dest) {
  const from = join(corpusDir, "project", sub);
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".txt")) continue;
    const rel = relative(from, join(entry.parentPath, entry.name)).slice(0, -".txt".length);
    mkdirSync(dirname(join(dest, rel)), { recursive: true });
    copyFileSync(join(from, `${rel}.txt`), join(dest, rel));
  }
  return dest;
}
