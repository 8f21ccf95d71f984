// Configuration of the binary: argv beats env beats default (docs/ARCHITECTURE.md, "Configuration"). Contract: this
// module and the ones it splits into under `config/` are the only code of the project that reads
// `process.env` or calls `process.cwd()`; the libraries get paths and options. It returns a
// complete, validated Config or throws ConfigError naming the flag or variable at fault, so the
// binary never half-starts on a bad setting. One rule for every variable: unset, empty or only
// whitespace means unset (config/env.ts).
import { realpathSync } from "node:fs";
import { homedir as osHomedir, tmpdir as osTmpdir } from "node:os";
import { delimiter, parse, resolve } from "node:path";
// Types only: the server's package loads the engine, and configuration is read before any command
// (a hook that passes must not load it). The default budget is restated below, kept equal by a test.
import type { ToolFamily } from "@caveman/mcp-server";
import { type Command, parseArgs } from "./args.js";
import { type Environment, SettingReader, type SettingSource } from "./config/env.js";
import { type HooksConfig, hooksConfig } from "./config/hooks.js";
import {
  numericDefault,
  setting,
  settingLabel,
  settingSource,
  type ValueSettingKey,
} from "./config/settings.js";
import {
  chipDirectory,
  nativeBinding,
  type StoreLocation,
  storeLocation,
  type TeamSettings,
  teamStore,
} from "./config/store.js";
import { byteSize, checkDir, expandHome, positiveInt } from "./config/values.js";
import { ConfigError } from "./errors.js";

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
  const pick = settings.pick.bind(settings);
  // A flagged setting by its key: the flag's value, else the table's variable.
  const fromTable = (key: Exclude<ValueSettingKey, "roots">) => pick(key, flags[key], setting(key).env);

  const rootsRaw =
    flags.roots.length > 0
      ? flags.roots
      : (pick("roots", undefined, setting("roots").env)?.split(delimiter) ?? []);
  if (flags.roots.length > 0) sources.roots = "flag";
  const roots = (
    rootsRaw.filter((r) => r.trim() !== "").length ? rootsRaw.filter((r) => r.trim() !== "") : [cwd]
  ).map((r) => checkDir(resolve(cwd, expandHome(r, home)), settingSource("roots", flags.roots.length > 0)));

  const familiesRaw = fromTable("families") ?? "compress,edit";
  const families = parseFamilies(familiesRaw, settingSource("families", sources.families === "flag"));

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

  const chipMax = positiveInt(fromTable("chipMax"), numericDefault("chipMax"), settingLabel("chipMax"));
  const ttlRaw = fromTable("chipTtl");
  const chipTtlMs =
    ttlRaw === undefined ? undefined : positiveInt(ttlRaw, 0, settingLabel("chipTtl"), MAX_TTL_S) * 1000;
  const maxInboundBytes = byteSize(
    fromTable("maxInboundBytes"),
    numericDefault("maxInboundBytes"),
    settingLabel("maxInboundBytes"),
  );
  const maxResultBytes = byteSize(
    fromTable("maxResultBytes"),
    numericDefault("maxResultBytes"),
    settingLabel("maxResultBytes"),
  );
  const engineTimeoutMs = positiveInt(
    fromTable("engineTimeoutMs"),
    numericDefault("engineTimeoutMs"),
    settingLabel("engineTimeoutMs"),
    MAX_ENGINE_TIMEOUT_MS,
  );
  const sqliteBinding = nativeBinding(pick("sqliteBinding", undefined, setting("sqliteBinding").env));
  const team = teamStore(flags, settings);
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

function parseFamilies(raw: string, source: string): ToolFamily[] {
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const out: ToolFamily[] = [];
  for (const p of parts) {
    if (p !== "compress" && p !== "edit" && p !== "retrieve")
      throw new ConfigError(`${source}: unknown tool family "${p}" (use compress, retrieve, edit)`);
    if (!out.includes(p)) out.push(p);
  }
  if (out.length === 0)
    throw new ConfigError(`${source}: name at least one tool family (compress, retrieve, edit)`);
  return out;
}

/** Longest chip TTL: ten years, far inside the millisecond range the chip store accepts. */
const MAX_TTL_S = 10 * 365 * 24 * 3600;
/** The engine budget per call when none is set: @caveman/mcp-server's DEFAULT_ENGINE_TIMEOUT_MS. */
export const DEFAULT_ENGINE_TIMEOUT_MS = numericDefault("engineTimeoutMs");
/** Longest engine budget: ten minutes (times eight for the largest inputs). */
const MAX_ENGINE_TIMEOUT_MS = 600_000;
