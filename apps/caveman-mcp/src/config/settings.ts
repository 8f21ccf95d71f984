// The one table of the binary's settings: per setting its flag, variable, parser, default and help
// text. args.ts takes its option flags from it, config.ts its names, values.ts's `parseSetting` its
// parsers and defaults, help.ts its "Options" and "Environment only" sections, and a test holds the
// README's and docs/decisions/configuration.md's tables to `settingsMarkdown()`. Adding a setting
// means one row here plus its use. Contract: plain data, no imports — the hook's entry loads
// configuration, and this must cost it nothing.

/**
 * How `parseSetting` (values.ts) reads a value given as text; a bad one is a ConfigError.
 * - `int`: a positive whole number, at most `max`;
 * - `bytes`: a byte size from 1 KiB to 1 GiB, with an optional unit (`16MiB`, `2k`);
 * - `dirs`: a path list (or the repeated flag) of existing absolute directories; none given is
 *   the working directory;
 * - `path`: `~` expanded and resolved against the working directory; with `variable: "absolute"`,
 *   a variable's value must be absolute already (a flag's may be relative);
 * - `file`: an existing file named by an absolute path (`what` names its kind in the message);
 * - `list`: comma-separated words out of `of`, duplicates dropped, at least one (`noun` names one);
 * - `bool`: on/off, 1/0, true/false, yes/no in any case; `invalid` words a bad value's message
 *   when it must say more than "is not on or off";
 * - `url`: trimmed; its parser is its store's, which needs the settings beside it (store.ts);
 * - `text`: as given, or trimmed with `trim`.
 */
export type Parser =
  | { readonly kind: "int"; readonly max?: number }
  | { readonly kind: "bytes" }
  | { readonly kind: "dirs" }
  | { readonly kind: "path"; readonly variable?: "absolute" }
  | { readonly kind: "file"; readonly what: string }
  | { readonly kind: "list"; readonly of: readonly string[]; readonly noun: string }
  | { readonly kind: "bool"; readonly invalid?: (raw: string) => string }
  | { readonly kind: "url" }
  | { readonly kind: "text"; readonly trim?: boolean };

export interface Setting {
  /** The key in `Flags` and in Config's `sources` (`db` and `ephemeral` both record as `store`). */
  readonly key: string;
  /** The option, if argv can set it; `arg` names its value (absent: a boolean flag). */
  readonly flag?: `--${string}`;
  readonly arg?: string;
  /** The variable read when the flag is absent. */
  readonly env: string;
  /** The variable column of --help when it says more than `env` (e.g. `=1`, a fallback). */
  readonly helpEnv?: string;
  /** The default, as `parseSetting` returns it (absent: computed at its use, or none). */
  readonly default?: number | readonly string[];
  /** How its value is read. */
  readonly parse: Parser;
  /** The --help description, one string per output line. */
  readonly help: readonly string[];
  /** The configuration table's row: what it is, flag and variable cells (when more than the names), default. */
  readonly doc: {
    readonly setting: string;
    readonly flag?: string;
    readonly env?: string;
    readonly default: string;
  };
}

export const MIB = 1024 * 1024;
/** Longest chip TTL: ten years, far inside the millisecond range the chip store accepts. */
const MAX_TTL_S = 10 * 365 * 24 * 3600;
/** Longest engine budget: ten minutes (times eight for the largest inputs). */
const MAX_ENGINE_TIMEOUT_MS = 600_000;

export const SETTINGS = [
  {
    key: "roots",
    flag: "--root",
    arg: "DIR",
    env: "CAVEMAN_ROOTS",
    helpEnv: "CAVEMAN_ROOTS (path list)",
    parse: { kind: "dirs" },
    help: ["edit roots (default: working directory)"],
    doc: {
      setting: "allowed edit roots",
      flag: "`--root DIR` (repeatable)",
      env: "`CAVEMAN_ROOTS` (path list)",
      default: "working directory (never `/` or the home directory implicitly)",
    },
  },
  {
    key: "families",
    flag: "--tools",
    arg: "compress,edit",
    env: "CAVEMAN_TOOLS",
    default: ["compress", "edit"],
    parse: { kind: "list", of: ["compress", "retrieve", "edit"], noun: "tool family" },
    help: ["tool families: compress, retrieve", "(caveman_retrieve alone), edit", "(default: compress,edit)"],
    doc: {
      setting: "tool families",
      flag: "`--tools compress,edit` (`retrieve` = `caveman_retrieve` alone, for hook setups)",
      default: "`compress,edit`",
    },
  },
  {
    key: "db",
    flag: "--db",
    arg: "PATH",
    env: "CAVEMAN_CCR_DB",
    helpEnv: "CAVEMAN_CCR_DB / CAVEMAN_HOME",
    parse: { kind: "path", variable: "absolute" },
    help: ["CCR database (default ~/.caveman/ccr.db)"],
    doc: {
      setting: "CCR database",
      env: "`CAVEMAN_CCR_DB`, else `CAVEMAN_HOME/ccr.db`",
      default: "`~/.caveman/ccr.db`",
    },
  },
  {
    key: "ephemeral",
    flag: "--ephemeral",
    env: "CAVEMAN_MCP_EPHEMERAL",
    helpEnv: "CAVEMAN_MCP_EPHEMERAL=1",
    parse: {
      kind: "bool",
      invalid: (raw) =>
        `CAVEMAN_MCP_EPHEMERAL=${JSON.stringify(raw)} is not understood; use 1 to keep originals in memory or 0 for the database`,
    },
    help: ["keep originals in memory only"],
    doc: { setting: "in-memory CCR store", env: "`CAVEMAN_MCP_EPHEMERAL=1`", default: "off" },
  },
  {
    key: "chipDir",
    flag: "--chip-dir",
    arg: "DIR",
    env: "CAVEMAN_CHIP_DIR",
    parse: { kind: "path" },
    help: ["chip directory (default: user cache dir)"],
    doc: {
      setting: "chip directory",
      default: "`$XDG_CACHE_HOME/caveman-mcp/chips`, `~/.cache/...`, `%LOCALAPPDATA%\\caveman-mcp\\chips`",
    },
  },
  {
    key: "chipMax",
    flag: "--chip-max",
    arg: "N",
    env: "CAVEMAN_CHIP_MAX",
    default: 30,
    parse: { kind: "int" },
    help: ["chips kept (default 30)"],
    doc: { setting: "chip capacity", default: "30" },
  },
  {
    key: "chipTtl",
    flag: "--chip-ttl",
    arg: "SECONDS",
    env: "CAVEMAN_CHIP_TTL",
    parse: { kind: "int", max: MAX_TTL_S },
    help: ["chip lifetime (default: none)"],
    doc: { setting: "chip lifetime", default: "none" },
  },
  {
    key: "maxInboundBytes",
    flag: "--max-inbound-bytes",
    arg: "N",
    env: "CAVEMAN_MAX_INBOUND_BYTES",
    default: 16 * MIB,
    parse: { kind: "bytes" },
    help: ["longest request line (default 16MiB)"],
    doc: { setting: "longest request line", default: "16 MiB" },
  },
  {
    key: "maxResultBytes",
    flag: "--max-result-bytes",
    arg: "N",
    env: "CAVEMAN_MAX_RESULT_BYTES",
    default: 16 * MIB,
    parse: { kind: "bytes" },
    help: ["largest tool result (default 16MiB)"],
    doc: { setting: "largest tool result", default: "16 MiB" },
  },
  {
    key: "engineTimeoutMs",
    flag: "--engine-timeout-ms",
    arg: "N",
    env: "CAVEMAN_ENGINE_TIMEOUT_MS",
    // @caveman/mcp-server's DEFAULT_ENGINE_TIMEOUT_MS, restated (no server import here), kept equal by a test.
    default: 4000,
    parse: { kind: "int", max: MAX_ENGINE_TIMEOUT_MS },
    help: [
      "engine time per call up to 1 MiB of input,",
      "then per MiB, at most 8x (default 4000);",
      "past it compress returns the input unchanged",
    ],
    doc: {
      setting: "engine time per call",
      default: "4000 (for up to 1 MiB of input; then per MiB, at most 8x)",
    },
  },
  {
    key: "team",
    flag: "--ccr-url",
    arg: "URL",
    env: "CAVEMAN_CCR_URL",
    parse: { kind: "url" },
    help: [
      "team store, redis://[user:pass@]host[:port][/db]",
      "or rediss:// (TLS); settings in the query:",
      "?namespace=N&idle=7d&max_age=30d&max_bytes=32MiB",
    ],
    doc: { setting: "team store", default: "none (local store only)" },
  },
  {
    key: "teamNamespace",
    flag: "--ccr-namespace",
    arg: "NAME",
    env: "CAVEMAN_CCR_NAMESPACE",
    parse: { kind: "text", trim: true },
    help: ['team store namespace (default: the URL\'s, else "default")'],
    doc: { setting: "team store namespace", default: "the URL's, else `default`" },
  },
  {
    key: "sqliteBinding",
    env: "CAVEMAN_SQLITE_BINDING",
    parse: { kind: "file", what: "a .node file" },
    help: ["absolute path of a prebuilt better_sqlite3.node (set by the npx launcher)"],
    doc: {
      setting: "SQLite native addon",
      env: "`CAVEMAN_SQLITE_BINDING` (absolute path; Node 20 only)",
      default: "better-sqlite3's own `build/Release/better_sqlite3.node`",
    },
  },
  {
    key: "hookConfig",
    env: "CAVEMAN_HOOK_CONFIG",
    parse: { kind: "path" },
    help: ["hook settings file (default: $CAVEMAN_HOME/hooks.json, ~/.caveman/hooks.json)"],
    doc: { setting: "hook settings file", default: "`$CAVEMAN_HOME/hooks.json`, `~/.caveman/hooks.json`" },
  },
  {
    key: "hook",
    env: "CAVEMAN_HOOK",
    helpEnv: "CAVEMAN_HOOK=off",
    parse: { kind: "bool" },
    help: ["turn the hooks off for a session (start the host with it)"],
    doc: {
      setting: "hooks off for a session",
      env: "`CAVEMAN_HOOK=off`",
      default: "the settings file's, else on",
    },
  },
  {
    key: "hookFloor",
    env: "CAVEMAN_HOOK_FLOOR",
    parse: { kind: "int", max: 10_000_000 },
    help: ["token floor below which outputs pass (default 500)"],
    doc: { setting: "hook token floor", default: "the settings file's, else 500" },
  },
  {
    key: "claudeConfigDir",
    env: "CLAUDE_CONFIG_DIR",
    parse: { kind: "path" },
    help: ["Claude Code's user directory (default ~/.claude)"],
    doc: { setting: "Claude Code's user directory", default: "`~/.claude`" },
  },
  {
    key: "teamPassword",
    env: "CAVEMAN_CCR_PASSWORD",
    parse: { kind: "text" },
    help: ["team store password (instead of putting it in the URL)"],
    doc: { setting: "team store password", default: "none (or the URL's)" },
  },
  {
    key: "teamTlsCa",
    env: "CAVEMAN_CCR_TLS_CA",
    parse: { kind: "file", what: "a PEM file" },
    help: ["absolute path of a PEM file with the CA of a rediss:// server's certificate"],
    doc: {
      setting: "team store CA (rediss://)",
      env: "`CAVEMAN_CCR_TLS_CA` (absolute path of a PEM file)",
      default: "Node's default CAs",
    },
  },
] as const satisfies readonly Setting[];

export type SettingKey = (typeof SETTINGS)[number]["key"];
type Flagged = Extract<(typeof SETTINGS)[number], { flag: string }>;
/** Settings argv can set with a value (`--root DIR`), and those that are a bare switch. */
export type ValueSettingKey = Extract<Flagged, { arg: string }>["key"];

/** One setting by key. */
export function setting(key: SettingKey): Setting {
  return SETTINGS.find((s) => s.key === key) as Setting;
}

/** A numeric setting's default (a row without one is a bug in the table). */
export function numericDefault(key: SettingKey): number {
  const d = setting(key).default;
  if (typeof d !== "number") throw new Error(`setting ${key} has no numeric default`);
  return d;
}

/** How a bad value names its setting: `--chip-max / CAVEMAN_CHIP_MAX`, or the variable alone. */
export function settingLabel(key: SettingKey): string {
  const s = setting(key);
  return s.flag ? `${s.flag} / ${s.env}` : s.env;
}

/** The one name a bad value is blamed on: the flag when it gave the value, else the variable. */
export function settingSource(key: SettingKey, fromFlag: boolean): string {
  const s = setting(key);
  return fromFlag && s.flag ? s.flag : s.env;
}

const pad = (s: string, width: number) => `${s.padEnd(width - 1, " ")} `;

/** The --help "Options" rows: flag (col 3), variable (col 28), description (col 59). */
export function helpOptions(): string {
  const out: string[] = [];
  for (const s of SETTINGS as readonly Setting[]) {
    if (!s.flag) continue;
    const [first = "", ...more] = s.help;
    const flag = s.arg ? `${s.flag} ${s.arg}` : s.flag;
    out.push(`  ${pad(flag, 25)}${pad(s.helpEnv ?? s.env, 31)}${first}`);
    for (const line of more) out.push(`${" ".repeat(58)}${line}`);
  }
  return out.join("\n");
}

/** The --help "Environment only" rows: variable (col 3), description (col 28). */
export function helpEnvironment(): string {
  return (SETTINGS as readonly Setting[])
    .filter((s) => !s.flag)
    .map((s) => `  ${pad(s.helpEnv ?? s.env, 25)}${s.help.join(" ")}`)
    .join("\n");
}

/** The configuration table of the README and docs/decisions/configuration.md, columns aligned. */
export function settingsMarkdown(): string {
  const rows = (SETTINGS as readonly Setting[]).map((s) => [
    s.doc.setting,
    s.doc.flag ?? (s.flag ? `\`${s.arg ? `${s.flag} ${s.arg}` : s.flag}\`` : "—"),
    s.doc.env ?? `\`${s.env}\``,
    s.doc.default,
  ]);
  const all = [["setting", "flag", "env", "default"], ...rows];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...all.map((r) => [...r[i]!].length)));
  const line = (r: readonly string[]) =>
    `| ${r.map((c, i) => c + " ".repeat(widths[i]! - [...c].length)).join(" | ")} |`;
  return [line(all[0]!), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}
