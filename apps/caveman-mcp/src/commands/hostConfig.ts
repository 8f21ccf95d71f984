// `config <host>`: print the snippet that registers caveman-mcp with one MCP host. Contract: stdout
// holds the snippet alone, in the host's own format (JSON, or TOML for Codex CLI), so it can be
// redirected into a file; where it goes is said on stderr. A `--root` goes in only when this
// command was given one: most of these files are global, and pinning the working directory would
// tie every project to this one (the server takes the client's roots, else its own working
// directory, and never `/` or home). VS Code gets its `${workspaceFolder}`. Codex gets a
// `startup_timeout_sec` long enough for a first `npx -y`. `config` alone lists the hosts; an
// unknown name is exit 2 with the list and the closest name.
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
/** Seconds Codex CLI waits for the server to start (its default is 10). */
const CODEX_STARTUP_TIMEOUT_S = 60;
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
      // Codex waits 10 s for a server by default; a first `npx -y` fetches the package, which takes longer.
      `[mcp_servers.${NAME}]\ncommand = ${tomlString(s.command)}\nargs = [${s.args.map(tomlString).join(", ")}]\nstartup_timeout_sec = ${CODEX_STARTUP_TIMEOUT_S}\n`,
  },
  {
    id: "gemini",
    title: "Gemini CLI",
    file: ".gemini/settings.json in the project, or ~/.gemini/settings.json",
    format: "json",
    render: (s) => json({ mcpServers: { [NAME]: s } }),
  },
];

/** Every host `config` and `install` know, by the name they take. */
export const HOST_IDS: readonly string[] = HOSTS.map((h) => h.id);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** A ConfigError (exit 2) for a host name that is not one: the list, and the closest name. */
export function unknownHost(verb: string, name: string): ConfigError {
  const n = name.toLowerCase();
  const best = HOST_IDS.map((id) => ({
    id,
    d: id.startsWith(n) || n.startsWith(id) ? 0 : distance(n, id),
  })).sort((a, b) => a.d - b.d)[0];
  const hint =
    best && best.d <= Math.max(2, Math.floor(best.id.length / 3)) ? ` Did you mean "${best.id}"?` : "";
  return new ConfigError(`${verb}: unknown host "${name}".${hint} Hosts: ${HOST_IDS.join(", ")}`);
}

/** The server's command line for `host`, given this command's configuration. */
function serverCommand(host: HostEntry, config: Config): { command: string; args: string[] } {
  const args = ["-y", "caveman-mcp"];
  if (config.sources.families === "flag") args.push("--tools", config.families.join(","));
  if (!config.families.includes("edit")) {
    // The compression tools touch no files: no root to name.
  } else if (host.id === "vscode" && config.sources.roots === "default") {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code expands this variable itself.
    args.push("--root", "${workspaceFolder}");
  } else if (config.sources.roots !== "default") {
    // Only roots the user named: most of these files are global, and a root taken from the
    // working directory would pin every project to this one.
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
  if (!host) throw unknownHost("config", command.host);
  const snippet = host.render(serverCommand(host, config));
  io.stderr.write(`caveman-mcp: ${host.title}: merge this into ${host.file}\n`);
  if (config.families.includes("edit") && config.sources.roots === "default" && host.id !== "vscode")
    io.stderr.write(
      "caveman-mcp: the edit tools use the client's roots, else the server's working directory (never / or home); add --root DIR to pin one project\n",
    );
  await writeOut(io, snippet);
  return 0;
}
