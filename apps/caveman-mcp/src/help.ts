// The --help text; README.md quotes it, so keep the two in step. The settings rows come from the
// settings table (config/settings.ts).
import { helpEnvironment, helpOptions } from "./config/settings.js";

export const HELP = `caveman-mcp — MCP server for coding agents: lossless edit tools (be-*) and
recoverable compression of tool output (caveman_*), on stdio.

Usage:
  caveman-mcp [options]                 serve MCP on stdio (what an MCP host runs)
  caveman-mcp compress [FILE|-] [--hint H] [--query Q] [--json]
                                        compress a file or stdin; text on stdout, handle on stderr
  caveman-mcp retrieve HANDLE [--query Q] [--json]
                                        print the original behind a handle (or a narrowed view)
  caveman-mcp stats [--session ID] [--json]
                                        tokens saved (today, one session, all time; retrieves
                                        netted out) as a table and a bar chart per kind, then the
                                        CCR store and chip figures
  caveman-mcp statusline                one line of savings for Claude Code's status line (reads
                                        the host's JSON on stdin)
  caveman-mcp chips list|show ID|clear [--json]
  caveman-mcp doctor [--json]           check store, chip dir, roots, hooks; print the effective config
  caveman-mcp flush [--json]            send originals waiting for the team store (--ccr-url), then exit
  caveman-mcp hook claude-code|gemini   a host hook: compress a large tool output on its way to the
                                        model (reads the hook JSON on stdin; fails open)
  caveman-mcp proxy -- COMMAND [ARGS]   wrap a stdio MCP server: large text results compressed,
                                        caveman_retrieve added
  caveman-mcp run [--stream-after-ms N] -- COMMAND [ARGS]
                                        run a command (what the Claude Code hook puts Bash
                                        commands under): same exit status, stdin, cwd and env;
                                        a large output is printed compressed, the exact one kept
  caveman-mcp install HOST [--scope user|project] [--tools retrieve,edit] [--dry-run] [--command CMD]
  caveman-mcp uninstall HOST [--scope user|project] [--dry-run]
                                        register (or remove) the hook and the MCP server for
                                        claude-code (its plugin, user scope) or gemini, from a
                                        stable copy in ~/.caveman/app; project scope writes only
                                        npx -y caveman-mcp@VERSION; other hosts get the proxy line
  caveman-mcp plugin DIR                write this build's Claude Code marketplace into DIR
  caveman-mcp config [HOST] [--root DIR]
                                        print the MCP config snippet for HOST (claude-code,
                                        claude-desktop, cursor, vscode, windsurf, zed, codex,
                                        gemini); no HOST lists them
  caveman-mcp --help | --version

Options (flag, then environment variable; flags win; a blank variable counts as unset):
${helpOptions()}

Environment only:
${helpEnvironment()}

Raw output for one call: put "# caveman:raw" (or CAVEMAN_RAW=1) in the shell command.

Exit codes: 0 success, 1 failure (unknown handle, failed check), 2 bad usage or configuration.
`;
