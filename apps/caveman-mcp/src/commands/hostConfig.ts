// `config <host>`: print the snippet that registers caveman-mcp with one MCP host. Contract: stdout
// holds the snippet alone, in the host's own format (JSON, or TOML for Codex CLI), so it can be
// redirected into a file; where it goes is said on stderr. Hosts that may start the server outside
// the project (most of them: a global config file, or Claude Desktop's cwd of `/`) get an explicit
// `--root`, which is the root(s) this command was given, else the working directory; VS Code gets
// its `${workspaceFolder}`; Claude Code's project `.mcp.json` runs in the project already.
// `config` alone lists the hosts.
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { ConfigError } from "../errors.js";
import { type Io, writeOut } from "./io.js";

interface HostEntry {
  /** The name `config <host>` takes. */
  id: string;
  title: string;
  /** Where the snippet goes (merge it into that file). */
  file: string;
  format: "json" | "toml";
  /** The snippet for a server started as `command args...`. */
  render(server: { command: string; args: string[] }): string;
}

const NAME = "caveman";
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
/** A TOML basic string; JSON's escapes (\", \\, \n, \uXXXX, ...) are all valid TOML escapes. */
const tomlString = (s: string) => JSON.stringify(s);

const HOSTS: readonly HostEntry[] = [
  {
    id: "claude-code",
    title: "Claude Code",
    file: ".mcp.json in the project (or run: claude mcp add caveman -- npx -y caveman-mcp)",
    format: "json",
    render: (s) => json({ mcpServers: { [NAME]: { type: "stdio", ...s } } }),
  },
  {
    id: "claude-desktop",
    title: "Claude Desktop",
    file: "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)",
    format: "json",
    render: (s) => json({ mcpServers: { [NAME]: s } }),
  },
  {
    id: "cursor",
    title: "Cursor",
    file: ".cursor/mcp.json in the project, or ~/.cursor/mcp.json",
    format: "json",
    render: (s) => json({ mcpServers: { [NAME]: s } }),
  },
  {
    id: "vscode",
    title: "VS Code",
    file: ".vscode/mcp.json in the workspace",
    format: "json",
    render: (s) => json({ servers: { [NAME]: { type: "stdio", ...s } } }),
  },
  {
    id: "windsurf",
    title: "Windsurf",
    file: "~/.codeium/windsurf/mcp_config.json",
    format: "json",
    render: (s) => json({ mcpServers: { [NAME]: s } }),
  },
  {
    id: "zed",
    title: "Zed",
    file: "Zed's settings.json (~/.config/zed/settings.json)",
    format: "json",
    render: (s) => json({ context_servers: { [NAME]: { source: "custom", ...s, env: {} } } }),
  },
  {
    id: "codex",
    title: "Codex CLI",
    file: "~/.codex/config.toml",
    format: "toml",
    render: (s) =>
      `[mcp_servers.${NAME}]\ncommand = ${tomlString(s.command)}\nargs = [${s.args.map(tomlString).join(", ")}]\n`,
  },
  {
    id: "gemini",
    title: "Gemini CLI",
    file: ".gemini/settings.json in the project, or ~/.gemini/settings.json",
    format: "json",
    render: (s) => json({ mcpServers: { [NAME]: s } }),
  },
];

/** The server's command line for `host`, given this command's configuration. */
function serverCommand(host: HostEntry, config: Config): { command: string; args: string[] } {
  const args = ["-y", "caveman-mcp"];
  if (config.sources.families === "flag") args.push("--tools", config.families.join(","));
  if (!config.families.includes("edit")) {
    // The compression tools touch no files: no root to name.
  } else if (host.id === "vscode" && config.sources.roots === "default") {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code expands this variable itself.
    args.push("--root", "${workspaceFolder}");
  } else if (host.id !== "claude-code" || config.sources.roots !== "default") {
    if (config.implicitRootRefusal) {
      throw new ConfigError(
        `config ${host.id}: ${config.implicitRootRefusal.replace(/^refusing/, "would refuse")}`,
      );
    }
    for (const root of config.roots) args.push("--root", root);
  }
  return { command: "npx", args };
}

export async function runHostConfig(
  command: Extract<Command, { name: "config" }>,
  config: Config,
  io: Io,
): Promise<number> {
  if (command.host === undefined) {
    const width = Math.max(...HOSTS.map((h) => h.id.length));
    await writeOut(io, `${HOSTS.map((h) => `${h.id.padEnd(width)}  ${h.title}: ${h.file}`).join("\n")}\n`);
    return 0;
  }
  const host = HOSTS.find((h) => h.id === command.host);
  if (!host) {
    throw new ConfigError(`config: unknown host "${command.host}" (${HOSTS.map((h) => h.id).join(", ")})`);
  }
  const snippet = host.render(serverCommand(host, config));
  io.stderr.write(`caveman-mcp: ${host.title}: merge this into ${host.file}\n`);
  await writeOut(io, snippet);
  return 0;
}
