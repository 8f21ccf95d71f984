// `install <host>` / `uninstall <host>`. Contract:
// - Claude Code, user scope: the plugin, installed the host's way — the marketplace is the stable
//   copy under `<caveman home>/app/<version>/` (stableCopy.ts), then `claude plugin marketplace add`
//   and `claude plugin install caveman-mcp@caveman-mcp`; entries an older install put in the
//   settings files are removed (by value). Where `claude` has no plugin commands, the settings files
//   get the same hook and server, pointing at that stable copy — never at the npx cache.
// - Project scope (both hosts): shared files get only `npx -y caveman-mcp@<version>` (no path of
//   this machine), and the output says so.
// - Gemini CLI, user scope: its settings file, pointing at the stable copy.
// - Tool families: `retrieve` alone unless `--tools` names others (the hook compresses outside the
//   model's calls, so the compression tools would only add to every request); `--tools
//   retrieve,edit` adds the edit tools.
// - Other known hosts get the proxy line (nothing is written); an unknown name or a typo is exit 2
//   with the list and the closest name. Everything else: settingsInstall.ts.
import { resolve } from "node:path";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { DEFAULT_TOOLS, MARKETPLACE, PLUGIN_ID } from "../plugin/layout.js";
import { VERSION } from "../version.js";
import { claudeCli } from "./claudeCli.js";
import { HOST_IDS, unknownHost } from "./hostConfig.js";
import { type HookHostName, type Launch, npxLaunch, proxyAdvice, settingsPlan } from "./hostFiles.js";
import { type Io, writeOut } from "./io.js";
import { SettingsFileError } from "./jsonEdit.js";
import {
  commitChanges,
  diffOf,
  type FileChange,
  InstallConflict,
  planInstall,
  planUninstall,
} from "./settingsInstall.js";
import {
  InstallSourceError,
  pruneStableCopies,
  serverSourceOf,
  stageApp,
  writeMarketplace,
} from "./stableCopy.js";

type InstallCommand = Extract<Command, { name: "install" | "uninstall" }>;

/** How this very binary is running: its node and its script. */
export interface SelfCommand {
  command: string;
  args: string[];
}

function toolsOf(config: Config, host: HookHostName): string[] {
  const asked = config.sources.families === "flag" ? [...config.families] : DEFAULT_TOOLS.split(",");
  // Gemini's hook may hand a result to caveman_retrieve: the family must be there.
  if (host === "gemini" && !asked.includes("retrieve") && !asked.includes("compress"))
    asked.unshift("retrieve");
  return asked;
}

function launchOf(
  command: InstallCommand,
  config: Config,
  self: SelfCommand,
): { launch: Launch; note?: string } {
  if (command.command) {
    const words = command.command.trim().split(/\s+/);
    return { launch: { command: words[0]!, args: words.slice(1), portable: false } };
  }
  if (command.scope === "project")
    return {
      launch: npxLaunch(VERSION),
      note: `Shared files name \`npx -y caveman-mcp@${VERSION}\` only (no path of this machine); each hook call pays npx's start-up.`,
    };
  const staged = stageApp({
    cavemanHome: config.hooks.cavemanHome,
    version: VERSION,
    source: serverSourceOf(self.args[0] ?? ""),
  });
  return {
    launch: { command: self.command, args: [staged.server], portable: false },
    note: `Registered the stable copy ${staged.dir} (it survives npx cache cleans).`,
  };
}

function report(changes: FileChange[], dryRun: boolean, config: Config): string[] {
  if (!dryRun) return commitChanges(config.hooks.cavemanHome, changes, new Date());
  return changes.flatMap((c) =>
    c.after === c.target.text
      ? [`unchanged ${c.target.file}`]
      : [`would change ${c.target.file}:`, diffOf(c)],
  );
}

function viaSettings(
  command: InstallCommand,
  config: Config,
  self: SelfCommand,
  host: HookHostName,
): string[] {
  const within = command.scope === "project" ? config.hooks.cwd : undefined;
  if (command.name === "uninstall") {
    // The values to recognise come from the records; the launch only shapes the plan's paths.
    const plan = settingsPlan(host, command.scope, config.hooks, npxLaunch(VERSION), toolsOf(config, host));
    return report(
      plan.files.map((f) => planUninstall(config.hooks.cavemanHome, f, within)),
      command.dryRun,
      config,
    );
  }
  const { launch, note } =
    command.dryRun && command.scope === "user" && !command.command
      ? {
          launch: { command: self.command, args: ["<stable copy>/cli.mjs"], portable: false },
          note: undefined,
        }
      : launchOf(command, config, self);
  const plan = settingsPlan(host, command.scope, config.hooks, launch, toolsOf(config, host));
  const lines = report(
    plan.files.map((f) => planInstall(config.hooks.cavemanHome, f, within)),
    command.dryRun,
    config,
  );
  if (!command.dryRun) lines.push("", ...(note ? [note] : []), ...plan.notes);
  return lines;
}

/** Claude Code, user scope, through its plugin commands; null when this `claude` has none. */
function viaPlugin(command: InstallCommand, config: Config, self: SelfCommand): string[] | null {
  const cli = claudeCli(config.hooks.env);
  const version = cli.pluginCommands();
  if (version === null) return null;
  const tools = toolsOf(config, "claude-code").join(",");
  const lines: string[] = [];
  if (command.name === "install") {
    const staged = command.dryRun
      ? { dir: `${config.hooks.cavemanHome}/app/${VERSION}` }
      : stageApp({
          cavemanHome: config.hooks.cavemanHome,
          version: VERSION,
          source: serverSourceOf(self.args[0] ?? ""),
        });
    const steps = [
      ["plugin", "marketplace", "add", staged.dir, "--scope", "user"],
      ["plugin", "install", PLUGIN_ID, "--scope", "user", "--config", `tools=${tools}`],
    ];
    if (command.dryRun)
      return [...steps.map((s) => `would run: claude ${s.join(" ")}`), ...viaSettingsCleanup(config, true)];
    for (const step of steps) {
      const r = cli.run(step);
      if (!r.ok) throw new PluginStepFailed(`${r.line} failed:\n${r.output}`);
      lines.push(`ran ${r.line}`);
      if (/installedVersion/.test(r.output)) {
        const v = /"installedVersion":"([^"]*)".*"availableVersion":"([^"]*)"/.exec(r.output);
        if (v && v[1] !== v[2]) {
          const u = cli.run(["plugin", "update", PLUGIN_ID, "--scope", "user"]);
          if (!u.ok) throw new PluginStepFailed(`${u.line} failed:\n${u.output}`);
          lines.push(`ran ${u.line}`);
        }
      }
    }
    lines.push(...viaSettingsCleanup(config, false));
    lines.push(
      "",
      `Claude Code (${version}) has the plugin ${PLUGIN_ID} from ${staged.dir}: its hook compresses large tool output and its server offers ${tools}.`,
      "Restart Claude Code; `claude mcp list` shows plugin:caveman-mcp:caveman, `caveman-mcp stats` what was saved.",
      'Status line: add "statusLine": {"type": "command", "command": "npx -y caveman-mcp statusline"} to ~/.claude/settings.json.',
    );
    return lines;
  }
  const steps = [
    ["plugin", "uninstall", PLUGIN_ID, "--scope", "user"],
    ["plugin", "marketplace", "remove", MARKETPLACE],
  ];
  if (command.dryRun)
    return [...steps.map((s) => `would run: claude ${s.join(" ")}`), ...viaSettingsCleanup(config, true)];
  for (const step of steps) {
    const r = cli.run(step);
    lines.push(
      r.ok ? `ran ${r.line}` : `${r.line}: ${r.output.split("\n")[0] ?? "failed"} (nothing to remove there)`,
    );
  }
  lines.push(...viaSettingsCleanup(config, false));
  return lines;
}

/** Our entries in the user's settings files from an install without the plugin: removed by value. */
function viaSettingsCleanup(config: Config, dryRun: boolean): string[] {
  const plan = settingsPlan(
    "claude-code",
    "user",
    config.hooks,
    npxLaunch(VERSION),
    toolsOf(config, "claude-code"),
  );
  const changes = plan.files
    .map((f) => planUninstall(config.hooks.cavemanHome, f))
    .filter((c) => c.after !== c.target.text);
  if (changes.length === 0) return [];
  return [
    "settings entries of an earlier install (the plugin replaces them):",
    ...report(changes, dryRun, config).map((l) => `  ${l}`),
  ];
}

class PluginStepFailed extends Error {
  readonly code = "plugin_install_failed";
}

export async function runInstall(
  command: InstallCommand,
  config: Config,
  io: Io,
  self: SelfCommand,
): Promise<number> {
  if (!HOST_IDS.includes(command.host)) throw unknownHost(command.name, command.host);
  const host = command.host;
  if (host !== "claude-code" && host !== "gemini") {
    await writeOut(
      io,
      command.name === "uninstall"
        ? `${host}: nothing was installed (hosts without hooks only get the proxy line)\n`
        : proxyAdvice(host, npxLaunch(VERSION)),
    );
    return 0;
  }
  let lines: string[];
  try {
    const plugin = host === "claude-code" && command.scope === "user" && !command.command;
    lines = (plugin ? viaPlugin(command, config, self) : null) ?? viaSettings(command, config, self, host);
    if (command.name === "uninstall" && !command.dryRun) lines.push(...pruneStableCopies(config.hooks));
  } catch (err) {
    if (
      err instanceof SettingsFileError ||
      err instanceof InstallConflict ||
      err instanceof InstallSourceError ||
      err instanceof PluginStepFailed
    ) {
      io.stderr.write(`caveman-mcp: ${err.code}: ${err.message}\n`);
      return 1;
    }
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code === "string") {
      // An fs failure mid-way (EACCES, ENOSPC, EEXIST on a planted temp name): nothing half-done.
      io.stderr.write(`caveman-mcp: install_failed: ${e.message} (no file was changed)\n`);
      return 1;
    }
    throw err;
  }
  await writeOut(io, `${lines.join("\n")}\n`);
  return 0;
}

/**
 * `caveman-mcp plugin DIR`: this build's Claude Code marketplace (server and manifests) in DIR,
 * for `claude plugin marketplace add DIR` or for a team to host in a repository.
 */
export async function runPluginCommand(
  command: Extract<Command, { name: "plugin" }>,
  config: Config,
  io: Io,
  self: SelfCommand,
): Promise<number> {
  const dir = resolve(config.hooks.cwd, command.dir);
  try {
    const source = serverSourceOf(self.args[0] ?? "");
    if (source === null)
      throw new InstallSourceError(
        `this caveman-mcp is not a self-contained build; run the npm package's: npx -y caveman-mcp@${VERSION} plugin ${command.dir}`,
      );
    writeMarketplace(dir, VERSION, source);
  } catch (err) {
    if (err instanceof InstallSourceError) {
      io.stderr.write(`caveman-mcp: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  await writeOut(io, `${dir}\n`);
  io.stderr.write(
    `caveman-mcp: the marketplace ${MARKETPLACE} is in ${dir}; add it with: claude plugin marketplace add ${dir} && claude plugin install ${PLUGIN_ID}\n`,
  );
  return 0;
}
