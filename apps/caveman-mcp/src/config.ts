// Configuration of the binary: argv beats env beats default (docs/ARCHITECTURE.md, "Configuration"). Contract: this
// module and the ones it splits into under `config/` are the only code of the project that reads
// `process.env` or calls `process.cwd()`; the libraries get paths and options. It returns a
// complete, validated Config or throws ConfigError naming the flag or variable at fault, so the
// binary never half-starts on a bad setting. One rule for every variable: unset, empty or only
// whitespace means unset (config/env.ts).
import { realpathSync } from "node:fs";
import { homedir as osHomedir, tmpdir as osTmpdir } from "node:os";
import { parse, resolve } from "node:path";
// Types only: the server's package loads the engine, and configuration is read before any command
// (a hook that passes must not load it). The default budget is restated below, kept equal by a test.
import type { ToolFamily } from "@caveman/mcp-server";
import { type Command, parseArgs } from "./args.js";
import { type Environment, SettingReader, type SettingSource } from "./config/env.js";
import { type HooksConfig, hooksConfig } from "./config/hooks.js";
import { numericDefault, setting, type ValueSettingKey } from "./config/settings.js";
import {
  chipDirectory,
  type StoreLocation,
  storeLocation,
  type TeamSettings,
  teamStore,
} from "./config/store.js";
import { parseSetting } from "./config/values.js";

export type { HooksConfig } from "./config/hooks.js";

export interface Config {
  roots: string[];
  families: ToolFamily[];
  store: StoreLocation;
  chipDir: string;
  chipMax: number;
  chipTtlMs: number | undefined;
  maxInboundBytes: number;
  maxResultBytes: number;
  /** Engine budget per call for inputs up to 1 MiB (larger inputs get it per MiB, up to 8x). */
  engineTimeoutMs: number;
  /** Absolute path of a prebuilt better_sqlite3.node (`CAVEMAN_SQLITE_BINDING`, set by the launcher). */
  sqliteBinding: string | undefined;
  /** The team store (`--ccr-url`), password included: show only `team.url.masked`. */
  team: TeamSettings | undefined;
  /**
   * Set when no root was given and the working directory (the implicit default) is the file
   * system root or the home directory: the server refuses to start its edit tools there, and
   * `doctor` fails, both with this text.
   */
  implicitRootRefusal: string | undefined;
  /** The user's home directory (client roots are never allowed to widen the edit tools to it). */
  home: string;
  /** Where each setting came from, for `doctor`. */
  sources: Record<string, SettingSource>;
  /** Hooks, proxy and install: settings file, host directories, the environment a wrapped server inherits. */
  hooks: HooksConfig;
}

export interface ConfigInput {
  argv: string[];
  env?: Environment;
  cwd?: string;
  homedir?: string;
  platform?: string;
}

export function loadConfig(input: ConfigInput): { command: Command; config: Config } {
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const home = input.homedir ?? osHomedir();
  const { command, flags } = parseArgs(input.argv);
  const settings = new SettingReader(env);
  const { sources } = settings;
  // A flagged setting by its key: the flag's value, else the table's variable, parsed by its row.
  const read = <K extends Exclude<ValueSettingKey, "roots">>(key: K) => {
    const raw = settings.pick(key, flags[key], setting(key).env);
    return parseSetting(key, raw, { cwd, home, fromFlag: sources[key] === "flag" });
  };

  const rootFlags = flags.roots.length > 0;
  const roots = parseSetting(
    "roots",
    rootFlags ? flags.roots : settings.pick("roots", undefined, setting("roots").env),
    { cwd, home, fromFlag: rootFlags },
  );
  if (rootFlags) sources.roots = "flag";

  const families = read("families");

  // Compared after symlinks: HOME may name the directory the working directory reaches another way.
  const realCwd = realOrSame(resolve(cwd));
  const cwdIsHome = realCwd === realOrSame(resolve(home));
  const implicitRootRefusal =
    families.includes("edit") && sources.roots === "default" && (parse(realCwd).root === realCwd || cwdIsHome)
      ? `refusing to use ${cwd} (the working directory${cwdIsHome ? ", your home directory" : ", the file system root"}) as the edit root; name the project with --root DIR (or CAVEMAN_ROOTS), or serve only the compression tools with --tools compress`
      : undefined;

  const store = storeLocation(flags, settings, { cwd, home });
  const chipDir = chipDirectory(flags.chipDir, settings, {
    cwd,
    home,
    platform: input.platform ?? process.platform,
    tmpdir: osTmpdir(),
  });

  const chipMax = read("chipMax");
  const chipTtlS = read("chipTtl");
  const chipTtlMs = chipTtlS === undefined ? undefined : chipTtlS * 1000;
  const maxInboundBytes = read("maxInboundBytes");
  const maxResultBytes = read("maxResultBytes");
  const engineTimeoutMs = read("engineTimeoutMs");
  // An existing absolute file; whether it loads is the store's to find out.
  const sqliteBinding = parseSetting(
    "sqliteBinding",
    settings.pick("sqliteBinding", undefined, setting("sqliteBinding").env),
    { cwd, home },
  );
  const team = teamStore(flags, settings, { cwd, home });
  return {
    command,
    config: {
      roots,
      families,
      store,
      chipDir,
      chipMax,
      chipTtlMs,
      maxInboundBytes,
      maxResultBytes,
      engineTimeoutMs,
      sqliteBinding,
      team,
      implicitRootRefusal,
      home,
      sources,
      hooks: hooksConfig(env, home, cwd),
    },
  };
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The engine budget per call when none is set: @caveman/mcp-server's DEFAULT_ENGINE_TIMEOUT_MS. */
export const DEFAULT_ENGINE_TIMEOUT_MS = numericDefault("engineTimeoutMs");
