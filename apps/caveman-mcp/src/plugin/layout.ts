// The Claude Code plugin and its marketplace, as data: every manifest file the marketplace
// directory holds beside the server's own files. Contract: pure (no fs); nothing in it names a
// path of the machine that builds or installs it — the hook and the server start through
// `${CLAUDE_PLUGIN_ROOT}`, the tool families through `${user_config.tools}` — so the same tree is
// what `pnpm build` writes, what `install claude-code` copies under `~/.caveman/`, and what a team
// may commit to a repository. `scripts/build-plugin.mjs` and `commands/install.ts` both use it.

/** The marketplace's name and the plugin's: `claude plugin install caveman-mcp@caveman-mcp`. */
export const MARKETPLACE = "caveman-mcp";
const PLUGIN = "caveman-mcp";
export const PLUGIN_ID = `${PLUGIN}@${MARKETPLACE}`;
/** Where the plugin sits inside the marketplace directory, and its server inside the plugin. */
export const PLUGIN_DIR = `plugins/${PLUGIN}`;
export const SERVER_DIR = `${PLUGIN_DIR}/server`;
export const SERVER_ENTRY = "cli.mjs";
/** Tool families of a default install: the hook compresses outside the model's calls, so only retrieve pays for itself. */
export const DEFAULT_TOOLS = "retrieve";

/** The host tools whose output the hook may compress (and every MCP tool but ours). */
export const CLAUDE_HOOK_MATCHER = "Bash|Read|Grep|mcp__.*";
/** The PreToolUse hook puts Bash commands under `caveman-mcp run` (a failing one never reaches PostToolUse). */
export const CLAUDE_PRE_HOOK_MATCHER = "Bash";
/** Seconds. The hook's own budget is far shorter; this only bounds a wedged process. */
export const CLAUDE_HOOK_TIMEOUT_S = 30;

const DESCRIPTION =
  "Compresses large tool output (logs, diffs, JSON, grep results) before the model reads it; caveman_retrieve gets the byte-exact original back.";

const README = `# caveman-mcp for Claude Code

This plugin makes long tool output cheaper for the model without losing anything. After each Bash,
Read, Grep or MCP tool call its hook compresses a large output (logs, diffs, JSON, test runs, grep
results) into a short view that keeps errors and failures, and stores the byte-exact original in
\`~/.caveman/ccr.db\`. The model gets the original, or only the part it asks for, back with the
\`caveman_retrieve\` tool that the plugin's MCP server offers.

Install it with \`npx -y caveman-mcp install claude-code\`, which copies this marketplace under
\`~/.caveman/\` and runs \`claude plugin install caveman-mcp@caveman-mcp\`. To also get the line-based
edit tools (\`be-*\`), set the \`tools\` option to \`retrieve,edit\` (\`/plugin configure caveman-mcp@caveman-mcp\`).
\`caveman-mcp stats\` shows what was saved; \`CAVEMAN_HOOK=off\` turns the hook off for a session.
`;

export interface PluginFile {
  /** Relative to the marketplace directory, with `/`. */
  path: string;
  text: string;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** The manifests of the marketplace for caveman-mcp `version` (the server files are copied beside them). */
export function pluginFiles(version: string): PluginFile[] {
  const author = { name: "caveman-mcp contributors" };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code expands these itself.
  const root = "${CLAUDE_PLUGIN_ROOT}";
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code expands these itself.
  const tools = "${user_config.tools}";
  const server = `${root}/server/${SERVER_ENTRY}`;
  return [
    {
      path: ".claude-plugin/marketplace.json",
      text: json({
        name: MARKETPLACE,
        owner: author,
        description: "caveman-mcp: recoverable compression of tool output for Claude Code.",
        plugins: [{ name: PLUGIN, source: `./${PLUGIN_DIR}`, version, description: DESCRIPTION, author }],
      }),
    },
    {
      path: `${PLUGIN_DIR}/.claude-plugin/plugin.json`,
      text: json({
        name: PLUGIN,
        version,
        description: DESCRIPTION,
        author,
        license: "MIT",
        userConfig: {
          tools: {
            type: "string",
            title: "Tool families",
            description:
              "retrieve (caveman_retrieve alone, the default), or retrieve,edit to add the be-* edit tools.",
            default: DEFAULT_TOOLS,
          },
        },
        mcpServers: { caveman: { command: "node", args: [server, "--tools", tools] } },
      }),
    },
    {
      path: `${PLUGIN_DIR}/hooks/hooks.json`,
      text: json({
        hooks: {
          PreToolUse: [
            {
              matcher: CLAUDE_PRE_HOOK_MATCHER,
              hooks: [
                {
                  type: "command",
                  command: `node "${server}" hook claude-code`,
                  timeout: CLAUDE_HOOK_TIMEOUT_S,
                },
              ],
            },
          ],
          PostToolUse: [
            {
              matcher: CLAUDE_HOOK_MATCHER,
              hooks: [
                {
                  type: "command",
                  command: `node "${server}" hook claude-code`,
                  timeout: CLAUDE_HOOK_TIMEOUT_S,
                },
              ],
            },
          ],
        },
      }),
    },
    { path: `${PLUGIN_DIR}/README.md`, text: README },
    // The server is ESM (cli.mjs) and its engine worker a .js file: this makes the worker ESM too.
    { path: `${SERVER_DIR}/package.json`, text: json({ type: "module" }) },
  ];
}
