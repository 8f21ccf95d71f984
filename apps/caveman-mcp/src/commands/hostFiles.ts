// What an install writes into a host's settings files, as data: which files, which JSON paths,
// which values. Contract: pure (no fs). The command a host runs is decided once (`Launch`): a
// shared file (project scope) only ever gets `npx -y caveman-mcp@<version>`, which names no path
// of this machine; a user file gets the stable copy under `~/.caveman/app/<version>/` (never the
// npx cache) or the command the user gave. Ownership is by value (installRecord.ts); `legacy`
// recognises what installs before the records wrote, and is used only for a file without one.
import { join } from "node:path";
// Hook commands run through the shell: one quoting rule for them and for wrapped commands.
import { shellWord } from "@caveman/hooks";
import type { HooksConfig } from "../config.js";
import { CLAUDE_HOOK_MATCHER, CLAUDE_HOOK_TIMEOUT_S, CLAUDE_PRE_HOOK_MATCHER } from "../plugin/layout.js";

export type Scope = "user" | "project";
export type HookHostName = "claude-code" | "gemini";

/** One entry of ours in one JSON file: an element of a list, or a member of an object. */
export interface JsonOp {
  kind: "element" | "member";
  path: string[];
  value: unknown;
  legacy: (value: unknown) => boolean;
}

export interface FilePlan {
  file: string;
  ops: JsonOp[];
}

export interface HostPlan {
  host: HookHostName;
  files: FilePlan[];
  notes: string[];
}

/** How hosts start caveman-mcp: `command args…`, and whether it may go into a shared file. */
export interface Launch {
  command: string;
  args: string[];
  /** True when it names nothing of this machine (`npx -y caveman-mcp@<version>`). */
  portable: boolean;
}

export const SERVER_NAME = "caveman";

export function npxLaunch(version: string): Launch {
  return { command: "npx", args: ["-y", `caveman-mcp@${version}`], portable: true };
}

function commandLine(launch: Launch, ...rest: string[]): string {
  return [launch.command, ...launch.args, ...rest].map(shellWord).join(" ");
}

function legacyHook(host: HookHostName): (el: unknown) => boolean {
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

function legacyServer(value: unknown): boolean {
  const v = value as { command?: unknown; args?: unknown } | null;
  const words = [v?.command, ...(Array.isArray(v?.args) ? v.args : [])].filter(
    (w) => typeof w === "string",
  ) as string[];
  return words.includes("--tools") && words.some((w) => /caveman-mcp|\/cli\.m?js$/.test(w));
}

/** Our hook group in a host's list for `event`. */
function hookOp(host: HookHostName, event: string, matcher: string, hook: Record<string, unknown>): JsonOp {
  return {
    kind: "element",
    path: ["hooks", event],
    legacy: legacyHook(host),
    value: { matcher, hooks: [hook] },
  };
}

/** Our MCP server under `mcpServers.caveman`. */
function serverOp(value: Record<string, unknown>): JsonOp {
  return { kind: "member", path: ["mcpServers", SERVER_NAME], legacy: legacyServer, value };
}

export function settingsPlan(
  host: HookHostName,
  scope: Scope,
  hooks: HooksConfig,
  launch: Launch,
  tools: readonly string[],
): HostPlan {
  const base = scope === "user" ? hooks.home : hooks.cwd;
  const serverArgs = [...launch.args, "--tools", tools.join(",")];
  const command = commandLine(launch, "hook", host);
  if (host === "claude-code") {
    const settings =
      scope === "user" ? join(hooks.claudeDir, "settings.json") : join(base, ".claude", "settings.json");
    const mcp = scope === "user" ? hooks.claudeJson : join(base, ".mcp.json");
    const hook = { type: "command", command, timeout: CLAUDE_HOOK_TIMEOUT_S };
    return {
      host,
      files: [
        {
          file: settings,
          ops: [
            hookOp(host, "PreToolUse", CLAUDE_PRE_HOOK_MATCHER, hook),
            hookOp(host, "PostToolUse", CLAUDE_HOOK_MATCHER, hook),
          ],
        },
        { file: mcp, ops: [serverOp({ type: "stdio", command: launch.command, args: serverArgs })] },
      ],
      notes: ["Restart Claude Code; `caveman-mcp doctor` checks the hook end to end."],
    };
  }
  const settings = join(scope === "user" ? hooks.geminiDir : join(base, ".gemini"), "settings.json");
  // Milliseconds in Gemini CLI.
  const hook = { name: "caveman", type: "command", command, timeout: 30000 };
  const matcher = "run_shell_command|read_file|search_file_content|grep_search|mcp_.*";
  return {
    host,
    files: [
      {
        file: settings,
        ops: [
          hookOp(host, "AfterTool", matcher, hook),
          // `trust` lets the model's caveman_retrieve run without a prompt; only read-only tools are
          // served unless edit was asked for, and then the user confirms as usual.
          serverOp({ command: launch.command, args: serverArgs, trust: !tools.includes("edit") }),
        ],
      },
    ],
    notes: ["Restart Gemini CLI; `caveman-mcp doctor` checks the hook end to end."],
  };
}

/** Hosts that cannot replace tool output from a hook: the way in is the proxy around their MCP servers. */
export function proxyAdvice(host: string, launch: Launch): string {
  return [
    `${host} cannot replace a tool's output from a hook, so nothing was written. Wrap each MCP server whose results are large:`,
    "",
    `  before: <command> [args...]`,
    `  after:  ${commandLine(launch, "proxy", "--")} <command> [args...]`,
    "",
    "The proxy passes everything through unchanged except large text results, which it compresses",
    `(originals kept for caveman_retrieve, which it adds to that server's tools). \`caveman-mcp config ${host}\``,
    "prints the snippet that registers caveman-mcp itself.",
    "",
  ].join("\n");
}
