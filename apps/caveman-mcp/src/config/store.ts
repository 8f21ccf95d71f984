// Where originals and chips live, from flags and variables: the CCR database (or memory), the
// chip directory, the prebuilt SQLite binding and the team store. Contract: every path comes back
// absolute and normalised, or ConfigError names the flag or variable at fault; the libraries get
// only these paths, never the variables.
import { isAbsolute, join, normalize, resolve } from "node:path";
import { isCcrStoreError, parseTeamUrl, type TeamUrl } from "@caveman/ccr-store";
import { defaultChipDir } from "@caveman/chip-store";
import { ConfigError } from "../errors.js";
import type { SettingReader } from "./env.js";
import { setting, settingLabel } from "./settings.js";
import { existingFile, expandHome } from "./values.js";

export type StoreLocation = { kind: "memory" } | { kind: "sqlite"; path: string };

interface StoreFlags {
  ephemeral: boolean;
  db?: string | undefined;
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["", "0", "false", "no", "off"]);
const STORE_VARIABLES = ["CAVEMAN_MCP_EPHEMERAL", "CAVEMAN_CCR_DB", "CAVEMAN_HOME"] as const;

/**
 * `--ephemeral`, else `--db`, else CAVEMAN_MCP_EPHEMERAL=1 (memory), else CAVEMAN_CCR_DB, else
 * CAVEMAN_HOME/ccr.db, else ~/.caveman/ccr.db. A variable's path must be absolute (or `~/…`); a
 * flag's may be relative to the working directory.
 */
export function storeLocation(
  flags: StoreFlags,
  settings: SettingReader,
  where: { cwd: string; home: string },
): StoreLocation {
  const { cwd, home } = where;
  if (flags.ephemeral || flags.db !== undefined) {
    settings.sources.store = "flag";
    return flags.ephemeral
      ? { kind: "memory" }
      : { kind: "sqlite", path: resolve(cwd, expandHome(flags.db ?? "", home)) };
  }
  settings.sources.store = STORE_VARIABLES.some((k) => settings.value(k) !== undefined) ? "env" : "default";
  if (!isAbsolute(home))
    throw new ConfigError(`homedir must be an absolute path, got ${JSON.stringify(home)}`);
  const ephemeral = settings.value("CAVEMAN_MCP_EPHEMERAL");
  const word = (ephemeral ?? "").trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return { kind: "memory" };
  if (!FALSE_WORDS.has(word)) {
    throw new ConfigError(
      `CAVEMAN_MCP_EPHEMERAL=${JSON.stringify(ephemeral)} is not understood; use 1 to keep originals in memory or 0 for the database`,
    );
  }
  const db = settings.value("CAVEMAN_CCR_DB");
  if (db !== undefined) return { kind: "sqlite", path: absoluteVariable("CAVEMAN_CCR_DB", db, home) };
  const cavemanHome = settings.value("CAVEMAN_HOME");
  if (cavemanHome !== undefined)
    return { kind: "sqlite", path: join(absoluteVariable("CAVEMAN_HOME", cavemanHome, home), "ccr.db") };
  return { kind: "sqlite", path: join(home, ".caveman", "ccr.db") };
}

function absoluteVariable(name: string, value: string, home: string): string {
  const expanded = expandHome(value, home);
  if (!isAbsolute(expanded))
    throw new ConfigError(`${name}=${JSON.stringify(value)} must be an absolute path`);
  return normalize(expanded);
}

/** `--chip-dir`, else CAVEMAN_CHIP_DIR, else the platform's user cache directory. */
export function chipDirectory(
  flag: string | undefined,
  settings: SettingReader,
  where: { cwd: string; home: string; platform: string; tmpdir: string },
): string {
  const raw = settings.pick("chipDir", flag, setting("chipDir").env);
  if (raw !== undefined) return resolve(where.cwd, expandHome(raw, where.home));
  const xdgCacheHome = settings.value("XDG_CACHE_HOME");
  const localAppData = settings.value("LOCALAPPDATA");
  return defaultChipDir({
    platform: where.platform,
    homedir: where.home,
    tmpdir: where.tmpdir,
    ...(xdgCacheHome !== undefined ? { xdgCacheHome } : {}),
    ...(localAppData !== undefined ? { localAppData } : {}),
  });
}

/** The binding must be an existing absolute file; whether it loads is the store's to find out. */
export function nativeBinding(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : existingFile(raw, setting("sqliteBinding").env, "a .node file");
}

export interface TeamSettings {
  url: TeamUrl;
  tlsCaFile: string | undefined;
}

/** The team store settings, validated now so a bad URL stops the start (exit 2), not a tool call. */
export function teamStore(
  flags: { team?: string | undefined; teamNamespace?: string | undefined },
  settings: SettingReader,
): TeamSettings | undefined {
  const url = settings.pick("team", flags.team, setting("team").env);
  const namespace = settings.pick("teamNamespace", flags.teamNamespace, setting("teamNamespace").env);
  const password = settings.pick("teamPassword", undefined, setting("teamPassword").env);
  const tlsCa = settings.pick("teamTlsCa", undefined, setting("teamTlsCa").env);
  if (url === undefined) {
    if (namespace !== undefined)
      throw new ConfigError(`${settingLabel("teamNamespace")} needs a team store URL (--ccr-url)`);
    return undefined;
  }
  let parsed: TeamUrl;
  try {
    parsed = parseTeamUrl(url.trim(), {
      ...(namespace !== undefined ? { namespace: namespace.trim() } : {}),
      ...(password !== undefined ? { password } : {}),
    });
  } catch (err) {
    if (!isCcrStoreError(err)) throw err;
    throw new ConfigError(`${settingLabel("team")}: ${err.message.replace(/^invalid_config: /, "")}`, {
      cause: err,
    });
  }
  if (tlsCa !== undefined) {
    const source = setting("teamTlsCa").env;
    existingFile(tlsCa, source, "a PEM file");
    if (!parsed.tls) throw new ConfigError(`${source} is set but the team store URL is not rediss:// (TLS)`);
  }
  return { url: parsed, tlsCaFile: tlsCa };
}
