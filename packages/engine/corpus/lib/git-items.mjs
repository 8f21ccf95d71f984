// Diffs and git's terminal output from a throwaway repository built in a temp dir with a fixed
// author and dates: three commits vendoring real package sources (picomatch, fs-extra,
// argparse) and upgrading them to the newer versions installed here, with the lockfile that
// the upgrade regenerates. Also a plain `diff -ru` of two content-type releases.
import { cpSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gold, makeTemp, run, storePackage, toolEnv } from "./util.mjs";

const VENDORED = {
  picomatch: ["lib", "package.json"],
  "fs-extra": ["lib", "package.json"],
  argparse: ["lib", "package.json", "CHANGELOG.md"],
};

function gitEnv(home, date) {
  return toolEnv({
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Dana Vendor",
    GIT_AUTHOR_EMAIL: "dana@example.com",
    GIT_COMMITTER_NAME: "Dana Vendor",
    GIT_COMMITTER_EMAIL: "dana@example.com",
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  });
}

function vendor(repo, versions) {
  const lock = { name: "shop", version: "1.0.0", lockfileVersion: 3, requires: true, packages: {} };
  lock.packages[""] = { name: "shop", version: "1.0.0", dependencies: {} };
  for (const [name, version] of Object.entries(versions).sort()) {
    const src = storePackage(`${name}@${version}`);
    const dest = join(repo, "vendor", name);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    for (const part of VENDORED[name]) cpSync(join(src, part), join(dest, part), { recursive: true });
    const pkg = JSON.parse(readFileSync(join(src, "package.json"), "utf8"));
    lock.packages[""].dependencies[name] = `^${version}`;
    const entry = {
      version,
      resolved: `https://registry.npmjs.org/${name}/-/${name}-${version}.tgz`,
      license: pkg.license,
    };
    if (pkg.dependencies) entry.dependencies = pkg.dependencies;
    if (pkg.engines) entry.engines = pkg.engines;
    lock.packages[`node_modules/${name}`] = entry;
  }
  writeFileSync(join(repo, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
}

function buildRepo() {
  const home = makeTemp("git-home");
  const repo = join(makeTemp("git"), "shop");
  mkdirSync(repo);
  const git = (date, ...args) => run("git", args, { cwd: repo, env: gitEnv(home, date) }).stdout;
  git("2026-10-01T09:00:00Z", "init", "-q", "-b", "main");
  const commit = (date, message, versions) => {
    vendor(repo, versions);
    git(date, "add", "-A");
    git(date, "commit", "-q", "-m", message);
    return git(date, "rev-parse", "--short", "HEAD").trim();
  };
  const c1 = commit("2026-10-01T09:00:00Z", "Vendor picomatch, fs-extra and argparse", {
    picomatch: "2.3.2",
    "fs-extra": "7.0.1",
    argparse: "1.0.10",
  });
  const c2 = commit("2026-10-08T14:30:00Z", "Upgrade picomatch to 4.0.7", {
    picomatch: "4.0.7",
    "fs-extra": "7.0.1",
    argparse: "1.0.10",
  });
  const c3 = commit("2026-10-15T11:15:00Z", "Upgrade fs-extra to 8.1.0 and argparse to 2.0.1", {
    picomatch: "4.0.7",
    "fs-extra": "8.1.0",
    argparse: "2.0.1",
  });
  const at =
    (date) =>
    (...args) =>
      git(date, ...args);
  return { repo, c1, c2, c3, git: at("2026-10-16T08:00:00Z") };
}

function plainDiff() {
  const dir = makeTemp("diff");
  const fixed = new Date("2026-09-01T12:00:00Z");
  for (const [side, version] of [
    ["a", "1.0.5"],
    ["b", "2.1.0"],
  ]) {
    const dest = join(dir, side, "content-type");
    cpSync(storePackage(`content-type@${version}`), dest, { recursive: true });
    const files = run("find", [dest], {}).stdout.split("\n").filter(Boolean);
    for (const f of files) utimesSync(f, fixed, fixed);
  }
  return run("diff", ["-ru", "a/content-type", "b/content-type"], { cwd: dir }).stdout;
}

const lineWith = (text, re) => text.split("\n").find((l) => re.test(l));

export function gitItems() {
  const { repo, c1, c2, c3, git } = buildRepo();
  const picomatch = git("diff", c1, c2);
  const logStat = git("log", "--stat", "-p", `${c2}..${c3}`, "--", "vendor/fs-extra", "package-lock.json");
  const argparse = git("show", "--stat", "-p", c3, "--", "vendor/argparse");
  // One pack thread: with more, the counters advance in steps that depend on scheduling.
  const pack = run(
    "git",
    ["-c", "pack.threads=1", "pack-objects", "--all", "--revs", "--progress", "--stdout"],
    {
      cwd: repo,
      input: "",
    },
  );
  const plain = plainDiff();
  const picoPlus = lineWith(picomatch, /^\+.*posix.*$/) ?? lineWith(picomatch, /^\+\s+const \w+ = /);
  const fsMinus = lineWith(logStat, /^-.*graceful-fs/) ?? lineWith(logStat, /^-\s+\S.{20,}/);
  return [
    {
      id: "diff-git-picomatch-upgrade",
      kind: "diff",
      hint: "git diff",
      ext: "diff",
      source: "git diff of a vendored picomatch 2.3.2 -> 4.0.7 upgrade with its package-lock.json",
      content: picomatch,
      gold: [
        gold("diff --git a/vendor/picomatch/lib/scan.js b/vendor/picomatch/lib/scan.js", "scan.js"),
        gold(picoPlus),
        gold('-      "version": "2.3.2",', "picomatch version 2.3.2"),
      ],
    },
    {
      id: "diff-git-log-stat-fs-extra",
      kind: "diff",
      hint: "git log --stat -p",
      ext: "diff",
      source: "git log --stat -p of the fs-extra 7.0.1 -> 8.1.0 upgrade commit",
      content: logStat,
      gold: [gold("Upgrade fs-extra to 8.1.0 and argparse to 2.0.1", "Upgrade fs-extra"), gold(fsMinus)],
    },
    {
      id: "diff-git-show-argparse",
      kind: "diff",
      hint: "git show",
      ext: "diff",
      source: "git show --stat -p of the argparse 1.0.10 -> 2.0.1 upgrade (vendor/argparse only)",
      content: argparse,
      gold: [
        gold("vendor/argparse/lib/namespace.js", "namespace.js"),
        gold(lineWith(argparse, /^\+## \[?2\.0\.0/) ?? "+## "),
      ],
    },
    {
      id: "diff-plain-content-type",
      kind: "diff",
      hint: "diff -ru",
      ext: "diff",
      source: "diff -ru of content-type 1.0.5 and 2.1.0 as installed (fixed mtimes)",
      content: plain,
      gold: [gold(lineWith(plain, /^\+\s+"version"/)), gold("Only in a/content-type: index.js", "index.js")],
    },
    {
      id: "terminal-git-pack-objects",
      kind: "terminal",
      hint: "git pack-objects --progress",
      ext: "ansi",
      source: "git pack-objects --all --progress over the throwaway repo (carriage-return progress redraws)",
      content: pack.stderr,
      gold: [gold(lineWith(pack.stderr, /^Total \d+/), "Total delta reused")],
    },
  ];
}
