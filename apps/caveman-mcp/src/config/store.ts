// Where originals and chips live, from flags and variables: the CCR database (or memory), the
// chip directory, the prebuilt SQLite binding and the team store. Contract: every path comes back
// absolute and normalised, or ConfigError names the flag or variable at fault; the libraries get
// only these paths, never the variables.
import { isAbsolute, join } from "node:path";
import { isCcrStoreError, parseTeamUrl, type TeamUrl } from "@caveman/ccr-store";
import { defaultChipDir } from "@caveman/chip-store";
import { ConfigError } from "../errors.js";
import type { SettingReader } from "./env.js";
import { setting, settingLabel } from "./settings.js";
import { absolutePath, type ParseContext, parseSetting } from "./values.js";

export type StoreLocation = { kind: "memory" } | { kind: "sqlite"; path: string };

interface StoreFlags {
  ephemeral: boolean;
  db?: string | undefined;
}

const STORE_VARIABLES = [setting("ephemeral").env, setting("db").env, "CAVEMAN_HOME"];

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
  const { home } = where;
  if (flags.ephemeral || flags.db !== undefined) {
    settings.sources.store = "flag";
    return flags.ephemeral
      ? { kind: "memory" }
      : { kind: "sqlite", path: parseSetting("db", flags.db ?? "", { ...where, fromFlag: true }) };
  }
  settings.sources.store = STORE_VARIABLES.some((k) => settings.value(k) !== undefined) ? "env" : "default";
  if (!isAbsolute(home))
    throw new ConfigError(`homedir must be an absolute path, got ${JSON.stringify(home)}`);
  if (parseSetting("ephemeral", settings.value(setting("ephemeral").env), where)) return { kind: "memory" };
  const db = parseSetting("db", settings.value(setting("db").env), where);
  if (db !== undefined) return { kind: "sqlite", path: db };
  const cavemanHome = settings.value("CAVEMAN_HOME");
  if (cavemanHome !== undefined)
    return { kind: "sqlite", path: join(absolutePath(cavemanHome, home, "CAVEMAN_HOME"), "ccr.db") };
  return { kind: "sqlite", path: join(home, ".caveman", "ccr.db") };
}

/** `--chip-dir`, else CAVEMAN_CHIP_DIR, else the platform's user cache directory. */
export function chipDirectory(
  flag: string | undefined,
  settings: SettingReader,
  where: { cwd: string; home: string; platform: string; tmpdir: string },
): string {
  const raw = settings.pick("chipDir", flag, setting("chipDir").env);
  if (raw !== undefined) return parseSetting("chipDir", raw, where);
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

export interface TeamSettings {
  url: TeamUrl;
  tlsCaFile: string | undefined;
}

/** The team store settings, validated now so a bad URL stops the start (exit 2), not a tool call. */
export function teamStore(
  flags: { team?: string | undefined; teamNamespace?: string | undefined },
  settings: SettingReader,
  where: ParseContext,
): TeamSettings | undefined {
  const url = parseSetting("team", settings.pick("team", flags.team, setting("team").env), where);
  const namespace = parseSetting(
    "teamNamespace",
    settings.pick("teamNamespace", flags.teamNamespace, setting("teamNamespace").env),
    where,
  );
  const password = parseSetting(
    "teamPassword",
    settings.pick("teamPassword", undefined, setting("teamPassword").env),
    where,
  );
  const tlsCaRaw = settings.pick("teamTlsCa", undefined, setting("teamTlsCa").env);
  if (url === undefined) {
    if (namespace !== undefined)
      throw new ConfigError(`${settingLabel("teamNamespace")} needs a team store URL (--ccr-url)`);
    return undefined;
  }
  let parsed: TeamUrl;
  try {
    parsed = parseTeamUrl(url, {
      ...(namespace !== undefined ? { namespace } : {}),
      ...(password !== undefined ? { password } : {}),
    });
  } catch (err) {
    if (!isCcrStoreError(err)) throw err;
    throw new ConfigError(`${settingLabel("team")}: ${err.message.replace(/^invalid_config: /, "")}`, {
      cause: err,
    });
  }
  // The CA file is checked only for a team store, and before the URL's scheme is held against it.
  const tlsCa = parseSetting("teamTlsCa", tlsCaRaw, where);
  if (tlsCa !== undefined && !parsed.tls)
    throw new ConfigError(`${setting("teamTlsCa").env} is set but the team store URL is not rediss:// (TLS)`);
  return { url: parsed, tlsCaFile: tlsCa };
}
