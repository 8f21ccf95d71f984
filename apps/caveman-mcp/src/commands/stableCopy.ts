// The stable, versioned copy of caveman-mcp that installs point at: `<caveman home>/app/<version>/`,
// a Claude Code marketplace directory (see plugin/layout.ts) whose `plugins/caveman-mcp/server/`
// holds a self-contained server (cli.mjs, its engine worker, SQLite bindings per Node ABI).
// Contract: never the npx cache — installs register this copy, which outlives any cache clean;
// staged whole (a temp directory renamed into place), so a half-copied version is never visible;
// an existing copy of the same version is kept when its server is byte-identical, and replaced
// whole otherwise (a rebuilt version). The source must be a self-contained build: the npm
// package's server or a copy like this one, never the workspace's `dist/cli.js`, which needs
// `node_modules` beside it.
import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { HooksConfig } from "../config.js";
import { pluginFiles, SERVER_DIR, SERVER_ENTRY } from "../plugin/layout.js";
import { ensureDir } from "../stores.js";

export interface StagedApp {
  /** The marketplace directory (`claude plugin marketplace add <dir>`). */
  dir: string;
  /** Absolute path of the server entry inside it. */
  server: string;
  /** True when this call created or replaced it. */
  fresh: boolean;
}

export class InstallSourceError extends Error {
  readonly code = "install_source_missing";
}

const WORKER = "engine-worker.js";

/** The directory of a self-contained server next to `script` (the running binary), or null. */
export function serverSourceOf(script: string): string | null {
  const dir = dirname(script);
  return existsSync(join(dir, SERVER_ENTRY)) && existsSync(join(dir, WORKER)) ? dir : null;
}

const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function copyServer(from: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o755 });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const st = statSync(src);
    if (st.isFile() && name !== "package.json") copyFileSync(src, join(to, name));
    else if (st.isDirectory() && /^node-v\d+$/.test(name)) copyServer(src, join(to, name));
  }
}

/**
 * Lays out the whole marketplace (manifests and server) at `dir`, staged beside it and renamed
 * into place; a marketplace already there is replaced whole. Anything else at `dir` is refused.
 */
export function writeMarketplace(dir: string, version: string, source: string): void {
  const parent = dirname(dir);
  if (
    existsSync(dir) &&
    readdirSync(dir).length > 0 &&
    !existsSync(join(dir, ".claude-plugin", "marketplace.json"))
  )
    throw new InstallSourceError(
      `${dir} exists and is not a caveman-mcp marketplace; name an empty or new directory`,
    );
  ensureDir(parent);
  const stage = join(parent, `.stage-${randomBytes(6).toString("hex")}`);
  try {
    copyServer(source, join(stage, SERVER_DIR));
    for (const f of pluginFiles(version)) {
      mkdirSync(dirname(join(stage, f.path)), { recursive: true, mode: 0o755 });
      writeFileSync(join(stage, f.path), f.text, { mode: 0o644 });
    }
    if (existsSync(dir)) {
      const old = join(parent, `.old-${randomBytes(6).toString("hex")}`);
      renameSync(dir, old);
      renameSync(stage, dir);
      rmSync(old, { recursive: true, force: true });
    } else renameSync(stage, dir);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The stable copy of `version`, staged from `source` when it is missing or differs. */
export function stageApp(options: {
  cavemanHome: string;
  version: string;
  source: string | null;
}): StagedApp {
  const dir = join(options.cavemanHome, "app", options.version);
  const server = join(dir, SERVER_DIR, SERVER_ENTRY);
  const { source } = options;
  if (source === join(dir, SERVER_DIR)) return { dir, server, fresh: false };
  if (source === null) {
    if (existsSync(server)) return { dir, server, fresh: false };
    throw new InstallSourceError(
      `this caveman-mcp is not a self-contained build (its ${SERVER_ENTRY} and ${WORKER} are not beside it); install from the npm package: npx -y caveman-mcp@${options.version} install …`,
    );
  }
  if (existsSync(server) && digest(server) === digest(join(source, SERVER_ENTRY)))
    return { dir, server, fresh: false };
  writeMarketplace(dir, options.version, source);
  return { dir, server, fresh: true };
}

/**
 * After an uninstall: the stable copies go too once nothing names them any more — no install
 * record (settings entries of either host) and no Claude Code settings file (the plugin's
 * marketplace) mentions `<caveman home>/app/`.
 */
export function pruneStableCopies(hooks: HooksConfig): string[] {
  const app = join(hooks.cavemanHome, "app");
  if (!existsSync(app)) return [];
  const mentions = (file: string) => {
    try {
      return readFileSync(file, "utf8").includes(app);
    } catch {
      return false;
    }
  };
  const records = join(hooks.cavemanHome, "installs");
  const recordFiles = existsSync(records) ? readdirSync(records).map((n) => join(records, n)) : [];
  if ([...recordFiles, join(hooks.claudeDir, "settings.json")].some(mentions)) return [];
  rmSync(app, { recursive: true, force: true });
  return [`removed ${app} (no install uses it any more)`];
}
