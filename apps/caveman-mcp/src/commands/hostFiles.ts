// What `install` writes for each host, as data: which settings files, which JSON paths, which
// values. Contract: pure (no fs); our entries are recognised by their command (`… hook <host>`)
// and by the server name, so re-installing replaces them and uninstall finds them whatever else
// the user added around them.
import { join } from "node:path";
import type { HooksConfig } from "../config.js";

export type Scope = "user" | "project";

/** One change to one JSON file: an element of an array (found by `isOurs`) or a member of an object. */
export type JsonOp =
  | { kind: "element"; path: string[]; value: unknown; isOurs: (el: unknown) => boolean }
  | { kind: "member"; path: string[]; value: unknown };

export interface FilePlan {
  file: string;
  ops: JsonOp[];
}

export interface HostPlan {
  host: string;
  files: FilePlan[];
  /** What to tell the user after a successful install. */
  notes: string[];
}

/** How to start this very binary: its own node and script, or the command the user gave. */
export interface SelfCommand {
  command: string;
  args: string[];
}

const SERVER_NAME = "caveman";

/** A POSIX shell word for `s` (hook commands run through the shell). */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function hookCommandLine(self: SelfCommand, host: "claude-code" | "gemini"): string {
  return [self.command, ...self.args, "hook", host].map(shellWord).join(" ");
}

function hookOwner(host: string): (el: unknown) => boolean {
  const suffix = ` hook ${host}`;
  return (el) => {
    const hooks = (el as { hooks?: unknown } | null)?.hooks;
    return (
      Array.isArray(hooks) &&
      hooks.some(
        (h) =>
          typeof (h as { command?: unknown })?.command === "string" &&
          (h as { command: string }).command.endsWith(suffix),
      )
    );
  };
}

export function planFor(host: string, scope: Scope, hooks: HooksConfig, self: SelfCommand): HostPlan | null {
  const base = scope === "user" ? hooks.home : hooks.cwd;
  if (host === "claude-code") {
    const settings =
      scope === "user" ? join(hooks.claudeDir, "settings.json") : join(base, ".claude", "settings.json");
    const mcp = scope === "user" ? hooks.claudeJson : join(base, ".mcp.json");
    return {
      host,
      files: [
        {
          file: settings,
          ops: [
            {
              kind: "element",
              path: ["hooks", "PostToolUse"],
              isOurs: hookOwner("claude-code"),
              value: {
                matcher: "Bash|Read|Grep|mcp__.*",
                // Seconds. Our own budget is far shorter; this only bounds a wedged process.
                hooks: [{ type: "command", command: hookCommandLine(self, "claude-code"), timeout: 30 }],
              },
            },
          ],
        },
        {
          file: mcp,
          ops: [
            {
              kind: "member",
              path: ["mcpServers", SERVER_NAME],
              value: {
                type: "stdio",
                command: self.command,
                args: [...self.args, "--tools", "retrieve,edit"],
              },
            },
          ],
        },
      ],
      notes: ["Restart Claude Code; `caveman-mcp doctor` checks the hook end to end."],
    };
  }
  if (host === "gemini") {
    const settings = join(scope === "user" ? hooks.geminiDir : join(base, ".gemini"), "settings.json");
    return {
      host,
      files: [
        {
          file: settings,
          ops: [
            {
              kind: "element",
              path: ["hooks", "AfterTool"],
              isOurs: hookOwner("gemini"),
              value: {
                matcher: "run_shell_command|read_file|search_file_content|grep_search|mcp_.*",
                // Milliseconds in Gemini CLI.
                hooks: [
                  {
                    name: "caveman",
                    type: "command",
                    command: hookCommandLine(self, "gemini"),
                    timeout: 30000,
                  },
                ],
              },
            },
            {
              kind: "member",
              path: ["mcpServers", SERVER_NAME],
              // The hook swaps a large result for a tail call of caveman_retrieve; `trust` lets that
              // call run without a prompt, and this server offers nothing but that read-only tool.
              value: { command: self.command, args: [...self.args, "--tools", "retrieve"], trust: true },
            },
          ],
        },
      ],
      notes: ["Restart Gemini CLI; `caveman-mcp doctor` checks the hook end to end."],
    };
  }
  return null;
}

/** Hosts that cannot replace tool output from a hook: the way in is the proxy around their MCP servers. */
export function proxyAdvice(host: string, self: SelfCommand): string {
  const proxy = [self.command, ...self.args, "proxy", "--"].map(shellWord).join(" ");
  return [
    `${host} cannot replace a tool's output from a hook. Wrap each MCP server whose results are large:`,
    "",
    `  before: <command> [args...]`,
    `  after:  ${proxy} <command> [args...]`,
    "",
    "The proxy passes everything through unchanged except large text results, which it compresses",
    "(originals kept for caveman_retrieve, which it adds to that server's tools).",
    "",
  ].join("\n");
}
