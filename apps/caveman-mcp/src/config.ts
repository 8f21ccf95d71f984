// Configuration of the binary: argv beats env beats default (docs/ARCHITECTURE.md, "Configuration"). Contract: this
// is the only module of the project that reads `process.env` or calls `process.cwd()`; it returns
// a complete, validated Config or throws ConfigError naming the flag or variable at fault, so the
// binary never half-starts on a bad setting.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { homedir as osHomedir, tmpdir as osTmpdir } from "node:os";
import { delimiter, isAbsolute, parse, resolve } from "node:path";
import { isCcrStoreError, parseTeamUrl, resolveStoreLocation, type TeamUrl } from "@caveman/ccr-store";
import { defaultChipDir } from "@caveman/chip-store";
import { DEFAULT_HOOK_SETTINGS, type HookSettings, isHookError, parseHookSettings } from "@caveman/hooks";
import { DEFAULT_ENGINE_TIMEOUT_MS, type ToolFamily } from "@caveman/mcp-server";
import { type Command, parseArgs } from "./args.js";
import { ConfigError } from "./errors.js";

export const MIB = 1024 * 1024;

export interface Config {
  roots: string[];
  families: ToolFamily[];
  store: { kind: "memory" } | { kind: "sqlite"; path: string };
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
  team: { url: TeamUrl; tlsCaFile: string | undefined } | undefined;
  /**
   * Set when no root was given and the working directory (the implicit default) is the file
   * system root or the home directory: the server refuses to start its edit tools there, and
   * `doctor` fails, both with this text.
   */
  implicitRootRefusal: string | undefined;
  /** The user's home directory (client roots are never allowed to widen the edit tools to it). */
  home: string;
  /** Where each setting came from, for `doctor`. */
  sources: Record<string, "flag" | "env" | "default">;
  /** Hooks, proxy and install: settings file, host directories, the environment a wrapped server inherits. */
  hooks: HooksConfig;
}

export interface HooksConfig {
  settings: HookSettings;
  /** The hook settings file (`CAVEMAN_HOOK_CONFIG`, else `<caveman home>/hooks.json`) and whether it exists. */
  file: string;
  fileFound: boolean;
  /**
   * What is wrong with the hook settings (file or env), if anything. Then `settings.enabled` is
   * false: hooks and the proxy pass everything, `doctor` fails, and nothing else is held up by it.
   */
  settingsError: string | undefined;
  /** `~/.caveman` or `CAVEMAN_HOME`: backups of edited host settings live under it. */
  cavemanHome: string;
  /** Claude Code's user directory (`CLAUDE_CONFIG_DIR`, else `~/.claude`) and its user MCP file. */
  claudeDir: string;
  claudeJson: string;
  /** Gemini CLI's user directory (`~/.gemini`). */
  geminiDir: string;
  /** Directories a host may persist large tool outputs in. */
  persistRoots: string[];
  home: string;
  cwd: string;
  /** The environment a wrapped MCP server inherits (the proxy passes ours on unchanged). */
  env: Readonly<Record<string, string | undefined>>;
}

export interface ConfigInput {
  argv: string[];
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  homedir?: string;
  platform?: string;
}

export function loadConfig(input: ConfigInput): { command: Command; config: Config } {
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const home = input.homedir ?? osHomedir();
  const { command, flags } = parseArgs(input.argv);
  const sources: Config["sources"] = {};
  const pick = (name: string, flag: string | undefined, envName: string): string | undefined => {
    if (flag !== undefined) {
      sources[name] = "flag";
      return flag;
    }
    const v = env[envName];
    if (v !== undefined && v.trim() !== "") {
      sources[name] = "env";
      return v;
    }
    sources[name] = "default";
    return undefined;
  };

  const rootsRaw =
    flags.roots.length > 0
      ? flags.roots
      : (pick("roots", undefined, "CAVEMAN_ROOTS")?.split(delimiter) ?? []);
  if (flags.roots.length > 0) sources.roots = "flag";
  const roots = (
    rootsRaw.filter((r) => r.trim() !== "").length ? rootsRaw.filter((r) => r.trim() !== "") : [cwd]
  ).map((r) => checkDir(resolve(cwd, expandHome(r, home)), flags.roots.length ? "--root" : "CAVEMAN_ROOTS"));

  const familiesRaw = pick("families", flags.tools, "CAVEMAN_TOOLS") ?? "compress,edit";
  const families = parseFamilies(familiesRaw, sources.families === "flag" ? "--tools" : "CAVEMAN_TOOLS");

  // Compared after symlinks: HOME may name the directory the working directory reaches another way.
  const realCwd = realOrSame(resolve(cwd));
  const cwdIsHome = realCwd === realOrSame(resolve(home));
  const implicitRootRefusal =
    families.includes("edit") && sources.roots === "default" && (parse(realCwd).root === realCwd || cwdIsHome)
      ? `refusing to use ${cwd} (the working directory${cwdIsHome ? ", your home directory" : ", the file system root"}) as the edit root; name the project with --root DIR (or CAVEMAN_ROOTS), or serve only the compression tools with --tools compress`
      : undefined;

  let store: Config["store"];
  if (flags.ephemeral) {
    sources.store = "flag";
    store = { kind: "memory" };
  } else if (flags.db !== undefined) {
    sources.store = "flag";
    store = { kind: "sqlite", path: resolve(cwd, expandHome(flags.db, home)) };
  } else {
    try {
      store = resolveStoreLocation(env, { homedir: home });
    } catch (err) {
      throw new ConfigError(
        err instanceof Error ? err.message.replace(/^invalid_config: /, "") : String(err),
        { cause: err },
      );
    }
    sources.store = ["CAVEMAN_MCP_EPHEMERAL", "CAVEMAN_CCR_DB", "CAVEMAN_HOME"].some((k) => env[k]?.trim())
      ? "env"
      : "default";
  }

  const chipDirRaw = pick("chipDir", flags.chipDir, "CAVEMAN_CHIP_DIR");
  const chipDir =
    chipDirRaw !== undefined
      ? resolve(cwd, expandHome(chipDirRaw, home))
      : defaultChipDir({
          env,
          platform: input.platform ?? process.platform,
          homedir: home,
          tmpdir: osTmpdir(),
        });

  const chipMax = positiveInt(
    pick("chipMax", flags.chipMax, "CAVEMAN_CHIP_MAX"),
    30,
    "--chip-max / CAVEMAN_CHIP_MAX",
  );
  const ttlRaw = pick("chipTtl", flags.chipTtl, "CAVEMAN_CHIP_TTL");
  const chipTtlMs =
    ttlRaw === undefined
      ? undefined
      : positiveInt(ttlRaw, 0, "--chip-ttl / CAVEMAN_CHIP_TTL", MAX_TTL_S) * 1000;
  const maxInboundBytes = byteSize(
    pick("maxInboundBytes", flags.maxInboundBytes, "CAVEMAN_MAX_INBOUND_BYTES"),
    16 * MIB,
    "--max-inbound-bytes / CAVEMAN_MAX_INBOUND_BYTES",
  );
  const maxResultBytes = byteSize(
    pick("maxResultBytes", flags.maxResultBytes, "CAVEMAN_MAX_RESULT_BYTES"),
    16 * MIB,
    "--max-result-bytes / CAVEMAN_MAX_RESULT_BYTES",
  );
  const engineTimeoutMs = positiveInt(
    pick("engineTimeoutMs", flags.engineTimeoutMs, "CAVEMAN_ENGINE_TIMEOUT_MS"),
    DEFAULT_ENGINE_TIMEOUT_MS,
    "--engine-timeout-ms / CAVEMAN_ENGINE_TIMEOUT_MS",
    MAX_ENGINE_TIMEOUT_MS,
  );
  const sqliteBinding = nativeBinding(pick("sqliteBinding", undefined, "CAVEMAN_SQLITE_BINDING"));
  const team = teamStore(
    pick("team", flags.ccrUrl, "CAVEMAN_CCR_URL"),
    pick("teamNamespace", flags.ccrNamespace, "CAVEMAN_CCR_NAMESPACE"),
    pick("teamPassword", undefined, "CAVEMAN_CCR_PASSWORD"),
    pick("teamTlsCa", undefined, "CAVEMAN_CCR_TLS_CA"),
  );
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

/**
 * Hook settings: the settings file (JSON, keys in packages/hooks' README), then the environment —
 * `CAVEMAN_HOOK=off` is the per-session off switch (start the host with it), `CAVEMAN_HOOK_FLOOR`
 * overrides the token floor. A missing file is the defaults; a bad file or value turns the hooks
 * off and is reported (`settingsError`) rather than stopping the server over a hook setting.
 */
function hooksConfig(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  cwd: string,
): HooksConfig {
  const set = (k: string) => {
    const v = env[k];
    return v !== undefined && v.trim() !== "" ? v.trim() : undefined;
  };
  const cavemanHome = resolve(cwd, expandHome(set("CAVEMAN_HOME") ?? "~/.caveman", home));
  const file = resolve(cwd, expandHome(set("CAVEMAN_HOOK_CONFIG") ?? `${cavemanHome}/hooks.json`, home));
  let settings: HookSettings = { ...DEFAULT_HOOK_SETTINGS };
  let fileFound = false;
  let settingsError: string | undefined;
  try {
    const text = readFileSync(file, "utf8");
    fileFound = true;
    settings = parseHookSettings(JSON.parse(text));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT")
      settingsError = `hook settings ${file}: ${
        isHookError(err)
          ? err.message.replace(/^hook_settings_invalid: /, "")
          : code
            ? `cannot read (${code})`
            : `not JSON (${(err as Error).message})`
      }`;
  }
  const off = set("CAVEMAN_HOOK");
  if (off !== undefined) {
    if (/^(off|0|false|no)$/i.test(off)) settings.enabled = false;
    else if (/^(on|1|true|yes)$/i.test(off)) settings.enabled = true;
    else settingsError ??= `CAVEMAN_HOOK: "${off}" is not on or off`;
  }
  const floor = set("CAVEMAN_HOOK_FLOOR");
  if (floor !== undefined) {
    try {
      settings.floorTokens = positiveInt(floor, 0, "CAVEMAN_HOOK_FLOOR", 10_000_000);
    } catch (err) {
      settingsError ??= (err as Error).message;
    }
  }
  if (settingsError) settings.enabled = false;
  const claudeDir = resolve(cwd, expandHome(set("CLAUDE_CONFIG_DIR") ?? "~/.claude", home));
  return {
    settings,
    file,
    fileFound,
    settingsError,
    cavemanHome,
    claudeDir,
    // Claude Code keeps user-scope MCP servers in ~/.claude.json, or inside CLAUDE_CONFIG_DIR when set.
    claudeJson: set("CLAUDE_CONFIG_DIR") ? resolve(claudeDir, ".claude.json") : resolve(home, ".claude.json"),
    geminiDir: resolve(home, ".gemini"),
    persistRoots: [claudeDir, osTmpdir()],
    home,
    cwd,
    env,
  };
}

function expandHome(p: string, home: string): string {
  return p === "~" ? home : p.startsWith("~/") ? `${home}/${p.slice(2)}` : p;
}

function checkDir(path: string, source: string): string {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new ConfigError(`${source}: ${path} does not exist`, { cause: err });
  }
  if (!isDir) throw new ConfigError(`${source}: ${path} is not a directory`);
  if (!isAbsolute(path)) throw new ConfigError(`${source}: ${path} must be absolute`);
  return path;
}

/** The binding must be an existing absolute file; whether it loads is the store's to find out. */
function nativeBinding(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const source = "CAVEMAN_SQLITE_BINDING";
  if (!isAbsolute(raw)) throw new ConfigError(`${source}: "${raw}" must be an absolute path to a .node file`);
  let isFile = false;
  try {
    isFile = statSync(raw).isFile();
  } catch (err) {
    throw new ConfigError(`${source}: ${raw} does not exist`, { cause: err });
  }
  if (!isFile) throw new ConfigError(`${source}: ${raw} is not a file`);
  return raw;
}

/** The team store settings, validated now so a bad URL stops the start (exit 2), not a tool call. */
function teamStore(
  url: string | undefined,
  namespace: string | undefined,
  password: string | undefined,
  tlsCa: string | undefined,
): Config["team"] {
  if (url === undefined) {
    if (namespace !== undefined)
      throw new ConfigError("--ccr-namespace / CAVEMAN_CCR_NAMESPACE needs a team store URL (--ccr-url)");
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
    throw new ConfigError(`--ccr-url / CAVEMAN_CCR_URL: ${err.message.replace(/^invalid_config: /, "")}`, {
      cause: err,
    });
  }
  if (tlsCa !== undefined) {
    const source = "CAVEMAN_CCR_TLS_CA";
    if (!isAbsolute(tlsCa))
      throw new ConfigError(`${source}: "${tlsCa}" must be an absolute path to a PEM file`);
    try {
      if (!statSync(tlsCa).isFile()) throw new ConfigError(`${source}: ${tlsCa} is not a file`);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(`${source}: ${tlsCa} does not exist`, { cause: err });
    }
    if (!parsed.tls) throw new ConfigError(`${source} is set but the team store URL is not rediss:// (TLS)`);
  }
  return { url: parsed, tlsCaFile: tlsCa };
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
/** Longest engine budget: ten minutes (times eight for the largest inputs). */
const MAX_ENGINE_TIMEOUT_MS = 600_000;
/** Largest size cap: a JS string (and so one JSON-RPC line) cannot be much longer anyway. */
const MAX_BYTES = 1024 * MIB;

function positiveInt(
  raw: string | undefined,
  dflt: number,
  source: string,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined) return dflt;
  const t = raw.trim();
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) < 1) {
    throw new ConfigError(`${source}: "${raw}" is not a positive whole number`);
  }
  if (Number(t) > max) throw new ConfigError(`${source}: ${t} is over the maximum of ${max}`);
  return Number(t);
}

function byteSize(raw: string | undefined, dflt: number, source: string): number {
  if (raw === undefined) return dflt;
  const m = /^(\d+)\s*(k|kib|m|mib|g|gib)?$/i.exec(raw.trim());
  const unit = { k: 1024, kib: 1024, m: MIB, mib: MIB, g: 1024 * MIB, gib: 1024 * MIB } as const;
  const n = m ? Number(m[1]) * (m[2] ? unit[m[2].toLowerCase() as keyof typeof unit] : 1) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1024 || n > MAX_BYTES) {
    throw new ConfigError(
      `${source}: "${raw}" is not a byte size from 1024 to ${MAX_BYTES} (e.g. 16777216 or 16MiB)`,
    );
  }
  return n;
}
