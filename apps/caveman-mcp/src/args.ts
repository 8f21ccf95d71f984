// argv parsing. Contract: pure (no env, no fs); options may come before or after the subcommand,
// as `--flag value` or `--flag=value`; anything unknown or missing is a ConfigError that names it.
import { SETTINGS, type ValueSettingKey } from "./config/settings.js";
import { ConfigError } from "./errors.js";

export type Command =
  | { name: "serve" }
  | { name: "compress"; file: string; json: boolean; hint?: string; query?: string }
  | { name: "retrieve"; handle: string; query?: string; json: boolean }
  | { name: "stats"; json: boolean; session?: string }
  | { name: "statusline" }
  | { name: "plugin"; dir: string }
  | { name: "flush"; json: boolean }
  | { name: "chips"; action: "list" | "show" | "clear"; id?: string; json: boolean }
  | { name: "doctor"; json: boolean }
  | { name: "hook"; host: "claude-code" | "gemini" }
  | { name: "proxy"; command: string; args: string[] }
  | { name: "run"; argv: string[]; streamAfterMs?: number }
  | {
      name: "install" | "uninstall";
      host: string;
      scope: "user" | "project";
      dryRun: boolean;
      command?: string;
    }
  | { name: "config"; host?: string }
  | { name: "help" }
  | { name: "version" };

/** The settings argv can give (from the settings table): `--root` repeats, switches are booleans. */
export type Flags = { roots: string[]; ephemeral: boolean } & {
  [K in Exclude<ValueSettingKey, "roots">]?: string;
};

const SETTING_FLAGS = new Map<string, ValueSettingKey>(
  SETTINGS.flatMap((s) => ("arg" in s ? [[s.flag, s.key] as const] : [])),
);
// Command options (not settings), then the settings' valued flags and switches.
const VALUE_FLAGS = new Set([
  ...SETTING_FLAGS.keys(),
  "--query",
  "--hint",
  "--scope",
  "--command",
  "--session",
  "--stream-after-ms",
]);
const BOOL_FLAGS = new Set([
  ...SETTINGS.flatMap((s) => ("flag" in s && !("arg" in s) ? [s.flag] : [])),
  "--json",
  "--help",
  "-h",
  "--version",
  "-V",
  "--dry-run",
]);

export function parseArgs(argv: string[]): { command: Command; flags: Flags } {
  const flags: Flags = { roots: [], ephemeral: false };
  const values = new Map<string, string>();
  const bools = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-" || !arg.startsWith("-")) {
      positional.push(arg);
      // Everything after the wrapped server's command is that server's, flags included.
      if ((positional[0] === "proxy" || positional[0] === "run") && positional.length === 2) {
        positional.push(...argv.slice(i + 1));
        break;
      }
      continue;
    }
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (BOOL_FLAGS.has(name)) {
      if (eq > 0) throw new ConfigError(`${name} takes no value`);
      bools.add(name);
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new ConfigError(`unknown option ${name} (see caveman-mcp --help)`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new ConfigError(`${name} needs a value`);
    if (name === "--root") flags.roots.push(value);
    else values.set(name, value);
  }
  for (const [flag, key] of SETTING_FLAGS) {
    const value = values.get(flag);
    if (key !== "roots" && value !== undefined) flags[key] = value;
  }
  flags.ephemeral = bools.has("--ephemeral");
  const json = bools.has("--json");
  const query = values.get("--query");
  const hint = values.get("--hint");

  if (bools.has("--help") || bools.has("-h")) return { command: { name: "help" }, flags };
  if (bools.has("--version") || bools.has("-V")) return { command: { name: "version" }, flags };
  const [name, ...rest] = positional;
  const extra = (max: number) => {
    if (rest.length > max) throw new ConfigError(`${name}: unexpected argument "${rest[max]}"`);
  };
  switch (name) {
    case undefined:
    case "serve":
      extra(0);
      return { command: { name: "serve" }, flags };
    case "help":
      return { command: { name: "help" }, flags };
    case "compress":
      extra(1);
      return { command: { name: "compress", file: rest[0] ?? "-", json, hint, query }, flags };
    case "retrieve":
      extra(1);
      if (!rest[0])
        throw new ConfigError("retrieve: give a handle (caveman-mcp retrieve ccr_<hex> [--query Q])");
      return { command: { name: "retrieve", handle: rest[0], query, json }, flags };
    case "stats": {
      extra(0);
      const session = values.get("--session");
      return { command: { name: "stats", json, ...(session ? { session } : {}) }, flags };
    }
    case "statusline":
      extra(0);
      return { command: { name: "statusline" }, flags };
    case "plugin":
      extra(1);
      if (!rest[0])
        throw new ConfigError(
          "plugin: name the directory to write the marketplace into (caveman-mcp plugin DIR)",
        );
      return { command: { name: "plugin", dir: rest[0] }, flags };
    case "doctor":
      extra(0);
      return { command: { name: "doctor", json }, flags };
    case "flush":
      extra(0);
      return { command: { name: "flush", json }, flags };
    case "config":
      extra(1);
      return { command: { name: "config", ...(rest[0] ? { host: rest[0] } : {}) }, flags };
    case "chips": {
      const action = rest[0] ?? "list";
      if (action === "list" || action === "clear") {
        extra(1);
        return { command: { name: "chips", action, json }, flags };
      }
      if (action === "show") {
        extra(2);
        if (!rest[1]) throw new ConfigError("chips show: give a chip id (caveman-mcp chips show abc123)");
        return { command: { name: "chips", action, id: rest[1], json }, flags };
      }
      throw new ConfigError(`chips: unknown action "${action}" (list, show ID, clear)`);
    }
    case "hook": {
      extra(1);
      const host = rest[0];
      if (host !== "claude-code" && host !== "gemini")
        throw new ConfigError(`hook: name the host (caveman-mcp hook claude-code | gemini)`);
      return { command: { name: "hook", host }, flags };
    }
    case "proxy": {
      const [cmd, ...cmdArgs] = rest;
      if (!cmd)
        throw new ConfigError("proxy: name the server to wrap (caveman-mcp proxy -- <command> [args...])");
      return { command: { name: "proxy", command: cmd, args: cmdArgs }, flags };
    }
    case "run": {
      const after = values.get("--stream-after-ms");
      const ms = Number(after);
      if (after !== undefined && !(Number.isInteger(ms) && ms >= 0))
        throw new ConfigError(`--stream-after-ms: "${after}" is not a whole number of milliseconds`);
      return {
        command: { name: "run", argv: rest, ...(after !== undefined ? { streamAfterMs: ms } : {}) },
        flags,
      };
    }
    case "install":
    case "uninstall": {
      extra(1);
      if (!rest[0]) throw new ConfigError(`${name}: name the host (claude-code, gemini, codex, cursor)`);
      const scope = values.get("--scope") ?? "user";
      if (scope !== "user" && scope !== "project")
        throw new ConfigError(`--scope: "${scope}" is not user or project`);
      const command = values.get("--command");
      return {
        command: {
          name,
          host: rest[0],
          scope,
          dryRun: bools.has("--dry-run"),
          ...(command ? { command } : {}),
        },
        flags,
      };
    }
    default:
      throw new ConfigError(`unknown command "${name}" (see caveman-mcp --help)`);
  }
}
