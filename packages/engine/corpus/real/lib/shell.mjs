// How the real corpus is recorded: projects cloned from public snapshots at a pinned commit into
// a scratch root, commands run there through bash (stdout and stderr interleaved, as a terminal
// or a host's Bash tool shows them), and the machine's own paths replaced by fixed ones so that
// no item names the recording machine.
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/** The projects items are recorded on: a public repository at the commit it was recorded at. */
export const PROJECTS = {
  express: { repo: "expressjs/express", commit: "a3714473feb3d2908add734d340e7755fd85e0a3" },
  gson: { repo: "google/gson", commit: "9835b6f90192f79cdf5300c528fc6212455fb6c1" },
  ripgrep: { repo: "BurntSushi/ripgrep", commit: "3fce3b5bb0236da2df6d99672afb8a719642eca7" },
  flask: { repo: "pallets/flask", commit: "2ac89889f4cc330eabd50f295dcef02828522c69" },
  vite: { repo: "vitejs/vite", commit: "a98c8d95d552c6fa98ab66fb810f5b39ad5abf49" },
  semver: { repo: "dtolnay/semver", commit: "8591f2344b52b31d85b538de58b76a676fe9ff90" },
  regex: { repo: "rust-lang/regex", commit: "2b527599eb9eea0dcc288c704584f242f26a5c61" },
};

/** A scratch root for one recording run (real path, so the prefix tools print is replaceable). */
export function scratchRoot() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "caveman-real-")));
  // PostgreSQL runs as its own user and must reach its data directory inside.
  chmodSync(root, 0o755);
  return root;
}

export function removeScratch(root) {
  rmSync(root, { recursive: true, force: true });
}

/** Clone `name` from the mirror directory (`<owner>+<name>/repo` git dirs) at its pinned commit. */
export function cloneProject(mirror, root, name) {
  const p = PROJECTS[name];
  const dir = join(root, name);
  if (existsSync(dir)) return dir;
  const src = join(mirror, p.repo.replace("/", "+"), "repo");
  git(["clone", "-q", src, dir]);
  if (!p.commit) p.commit = git(["-C", dir, "rev-parse", "HEAD"]).trim();
  git(["-C", dir, "checkout", "-q", p.commit]);
  // Commands like `git log` must not show the mirror as origin.
  git(["-C", dir, "remote", "remove", "origin"]);
  return dir;
}

function git(args) {
  const res = spawnSync("git", args, { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`git ${args.join(" ")}: ${res.stderr}`);
  return res.stdout;
}

/** The environment every command gets: UTC, C.UTF-8, no CI markers; colour only when asked. */
function env(extra = {}) {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? homedir(),
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    TERM: "xterm-256color",
    ...extra,
  };
}

/** Runs `cmd` with bash in `cwd`; the output as a terminal shows it, or stdout alone (exit status ignored). */
export function sh(cmd, { cwd, extraEnv, stderr = true, timeoutMs = 600_000 } = {}) {
  const res = spawnSync("bash", ["-c", stderr ? `{ ${cmd}\n} 2>&1` : `{ ${cmd}\n} 2>/dev/null`], {
    cwd,
    env: env(extraEnv),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: timeoutMs,
  });
  if (res.error) throw new Error(`${cmd}: ${res.error.message}`);
  return res.stdout;
}

/** Starts a long-running program; returns a stop() that ends it and waits for it. */
export function start(cmd, { cwd, extraEnv, logFile } = {}) {
  const child = spawn("bash", ["-c", logFile ? `exec ${cmd} >>${logFile} 2>&1` : `exec ${cmd}`], {
    cwd,
    env: env(extraEnv),
    stdio: "ignore",
  });
  const done = new Promise((r) => child.once("exit", r));
  return async () => {
    child.kill("SIGTERM");
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until `probe()` returns true (a server answering), at most `ms`. */
export async function waitFor(probe, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (probe()) return;
    await sleep(200);
  }
  throw new Error("service did not come up");
}

/** Replaces the recording machine's paths (scratch root, home, this checkout) with fixed ones. */
export function sanitize(text, root, repoRoot) {
  const pairs = [
    [root, "/src"],
    [repoRoot, "/src/caveman-mcp"],
    [homedir(), "/home/dev"],
    [tmpdir(), "/tmp"],
  ].sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [from, to] of pairs) out = out.split(from).join(to);
  return out;
}

/** Drops the dependency sections of a Cargo.toml (no crates.io here): the crate builds alone. */
export function standaloneCargo(dir) {
  const file = join(dir, "Cargo.toml");
  let skip = false;
  const out = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("[")) skip = line.includes("dependencies") || line.startsWith("[[bench]]");
    if (skip || line.includes("dep:") || /^(arbitrary|workspace|\w+\.workspace)\s*=/.test(line)) continue;
    out.push(line);
  }
  if (!out.includes("[workspace]")) out.push("", "[workspace]");
  writeFileSync(file, out.join("\n"));
}

export function ensureDir(dir) {
  mkdirSync(dir, { recursive: true });
  return dir;
}
