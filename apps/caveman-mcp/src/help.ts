// The --help text; README.md quotes it, so keep the two in step.
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
  --root DIR               CAVEMAN_ROOTS (path list)      edit roots (default: working directory)
  --tools compress,edit    CAVEMAN_TOOLS                  tool families: compress, retrieve
                                                          (caveman_retrieve alone), edit
                                                          (default: compress,edit)
  --db PATH                CAVEMAN_CCR_DB / CAVEMAN_HOME  CCR database (default ~/.caveman/ccr.db)
  --ephemeral              CAVEMAN_MCP_EPHEMERAL=1        keep originals in memory only
  --chip-dir DIR           CAVEMAN_CHIP_DIR               chip directory (default: user cache dir)
  --chip-max N             CAVEMAN_CHIP_MAX               chips kept (default 30)
  --chip-ttl SECONDS       CAVEMAN_CHIP_TTL               chip lifetime (default: none)
  --max-inbound-bytes N    CAVEMAN_MAX_INBOUND_BYTES      longest request line (default 16MiB)
  --max-result-bytes N     CAVEMAN_MAX_RESULT_BYTES       largest tool result (default 16MiB)
  --engine-timeout-ms N    CAVEMAN_ENGINE_TIMEOUT_MS      engine time per call up to 1 MiB of input,
                                                          then per MiB, at most 8x (default 4000);
                                                          past it compress returns the input unchanged
  --ccr-url URL            CAVEMAN_CCR_URL                team store, redis://[user:pass@]host[:port][/db]
                                                          or rediss:// (TLS); settings in the query:
                                                          ?namespace=N&idle=7d&max_age=30d&max_bytes=32MiB
  --ccr-namespace NAME     CAVEMAN_CCR_NAMESPACE          team store namespace (default: the URL's, else "default")

Environment only:
  CAVEMAN_SQLITE_BINDING   absolute path of a prebuilt better_sqlite3.node (set by the npx launcher)
  CAVEMAN_HOOK_CONFIG      hook settings file (default: $CAVEMAN_HOME/hooks.json, ~/.caveman/hooks.json)
  CAVEMAN_HOOK=off         turn the hooks off for a session (start the host with it)
  CAVEMAN_HOOK_FLOOR       token floor below which outputs pass (default 500)
  CLAUDE_CONFIG_DIR        Claude Code's user directory (default ~/.claude)
  CAVEMAN_CCR_PASSWORD     team store password (instead of putting it in the URL)
  CAVEMAN_CCR_TLS_CA       absolute path of a PEM file with the CA of a rediss:// server's certificate

Raw output for one call: put "# caveman:raw" (or CAVEMAN_RAW=1) in the shell command.

Exit codes: 0 success, 1 failure (unknown handle, failed check), 2 bad usage or configuration.
`;
