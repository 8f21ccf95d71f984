// Hook, proxy and install settings: the hook settings file, the per-session switches and the host
// directories. Contract: a missing file is the defaults; a bad file or value turns the hooks off
// and is reported in `settingsError`, never thrown, so a hook setting cannot stop the server.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from "node:fs";
import { resolve } from "node:path";
import {
  DEFAULT_HOOK_SETTINGS,
  HookError,
  type HookSettings,
  isHookError,
  parseHookSettings,
} from "@caveman/hooks";
import { type Environment, envValue } from "./env.js";
import { setting } from "./settings.js";
import { expandHome, parseSetting } from "./values.js";

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
  /** Directories a host may persist large tool outputs in (Claude Code's `projects/` folder). */
  persistRoots: string[];
  home: string;
  cwd: string;
  /** The environment a wrapped MCP server inherits (the proxy passes ours on unchanged). */
  env: Environment;
  /** The shell Claude Code runs Bash in (`CLAUDE_CODE_SHELL`, else `SHELL` when bash or zsh, else bash): the wrapper's. */
  shell: string;
  /** The session's MCP result limit in tokens (Claude Code's own `MAX_MCP_OUTPUT_TOKENS`), when set. */
  mcpLimitTokens: number | undefined;
  /** The host's session this process serves (`CLAUDE_CODE_SESSION_ID`, which Claude Code gives its MCP servers), for the savings journal. */
  hostSession: string | undefined;
}

/**
 * Hook settings: the settings file (JSON, keys in packages/hooks' README), then the environment —
 * `CAVEMAN_HOOK=off` is the per-session off switch (start the host with it), `CAVEMAN_HOOK_FLOOR`
 * overrides the token floor.
 */
export function hooksConfig(env: Environment, home: string, cwd: string): HooksConfig {
  // Hook-side values are trimmed (they are words and numbers, or paths typed into a shell profile).
  const set = (k: string) => envValue(env, k)?.trim();
  const cavemanHome = resolve(cwd, expandHome(set("CAVEMAN_HOME") ?? "~/.caveman", home));
  const where = { cwd, home };
  const file =
    parseSetting("hookConfig", set(setting("hookConfig").env), where) ??
    resolve(cwd, `${cavemanHome}/hooks.json`);
  let settings: HookSettings = { ...DEFAULT_HOOK_SETTINGS };
  let fileFound = false;
  let settingsError: string | undefined;
  try {
    const text = readSettingsFile(file);
    fileFound = true;
    settings = parseHookSettings(JSON.parse(text));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT")
      settingsError = `hook settings ${file}: ${
        isHookError(err)
          ? err.message
          : code
            ? `cannot read (${code})`
            : `not JSON (${(err as Error).message})`
      }`;
  }
  try {
    const on = parseSetting("hook", set(setting("hook").env), where);
    if (on !== undefined) settings.enabled = on;
  } catch (err) {
    settingsError ??= (err as Error).message;
  }
  try {
    const floor = parseSetting("hookFloor", set(setting("hookFloor").env), where);
    if (floor !== undefined) settings.floorTokens = floor;
  } catch (err) {
    settingsError ??= (err as Error).message;
  }
  if (settingsError) settings.enabled = false;
  const claudeConfigDir = parseSetting("claudeConfigDir", set(setting("claudeConfigDir").env), where);
  const claudeDir = claudeConfigDir ?? resolve(cwd, expandHome("~/.claude", home));
  return {
    settings,
    file,
    fileFound,
    settingsError,
    cavemanHome,
    claudeDir,
    // Claude Code keeps user-scope MCP servers in ~/.claude.json, or inside CLAUDE_CONFIG_DIR when set.
    claudeJson: claudeConfigDir ? resolve(claudeDir, ".claude.json") : resolve(home, ".claude.json"),
    geminiDir: resolve(home, ".gemini"),
    // Claude Code persists large outputs under its own project folders (projects/<project>/
    // <session>/tool-results/); nowhere else is read, least of all a world-writable temp dir.
    persistRoots: [resolve(claudeDir, "projects")],
    home,
    cwd,
    env,
    shell: wrapShell(set("CLAUDE_CODE_SHELL") || set("SHELL") || ""),
    mcpLimitTokens: hostLimit(set("MAX_MCP_OUTPUT_TOKENS")),
    hostSession: set("CLAUDE_CODE_SESSION_ID"),
  };
}

function wrapShell(shell: string): string {
  return /(?:^|\/)(?:bash|zsh)$/.test(shell) ? shell : "bash";
}

/** A host's own variable: a value that is not a positive integer is the host's business, so it is ignored. */
function hostLimit(raw: string | undefined): number | undefined {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Settings are a few hundred bytes; a larger file is a mistake, not settings. */
const MAX_SETTINGS_BYTES = 1 << 20;

/** What a path is, in the words of an error message. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

/**
 * The settings file's text. Anything but a regular file (a FIFO would block the hook and the
 * server at start; a device could be endless) is refused with hook_settings_invalid before it is
 * opened for reading; the open itself is non-blocking and checked again through its descriptor,
 * so a swap after the first look cannot make us wait on a FIFO either.
 */
function readSettingsFile(file: string): string {
  const refuse = (what: string) =>
    new HookError(
      "hook_settings_invalid",
      `is ${what}, not a settings file; replace it with a JSON file or remove it`,
    );
  const st = statSync(file);
  if (!st.isFile()) throw refuse(kindOf(st));
  if (st.size > MAX_SETTINGS_BYTES) throw refuse(`${st.size} bytes (the limit is ${MAX_SETTINGS_BYTES})`);
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw refuse(kindOf(opened));
    if (opened.size > MAX_SETTINGS_BYTES)
      throw refuse(`${opened.size} bytes (the limit is ${MAX_SETTINGS_BYTES})`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}
