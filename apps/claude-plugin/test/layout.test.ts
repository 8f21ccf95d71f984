// The built marketplace: every manifest parses, the plugin runs its own copy through
// ${CLAUDE_PLUGIN_ROOT}, and no file names a path of the machine that built it. (`claude plugin
// validate` and a real install run in the host tier.)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIST = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "dist");
const REPO = resolve(DIST, "..", "..", "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe("the built Claude Code marketplace", () => {
  it("has the marketplace, plugin, hooks and a self-contained server", () => {
    const rel = files(DIST)
      .map((f) => f.slice(DIST.length + 1))
      .sort();
    expect(rel).toEqual(
      expect.arrayContaining([
        ".claude-plugin/marketplace.json",
        "plugins/caveman-mcp/.claude-plugin/plugin.json",
        "plugins/caveman-mcp/hooks/hooks.json",
        "plugins/caveman-mcp/README.md",
        "plugins/caveman-mcp/server/cli.mjs",
        "plugins/caveman-mcp/server/engine-worker.js",
        "plugins/caveman-mcp/server/package.json",
      ]),
    );
    const plugin = JSON.parse(
      readFileSync(join(DIST, "plugins/caveman-mcp/.claude-plugin/plugin.json"), "utf8"),
    );
    expect(plugin.mcpServers.caveman.args).toEqual([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the host expands it.
      "${CLAUDE_PLUGIN_ROOT}/server/cli.mjs",
      "--tools",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the host expands it.
      "${user_config.tools}",
    ]);
    expect(plugin.userConfig.tools.default).toBe("retrieve");
    const hooks = JSON.parse(readFileSync(join(DIST, "plugins/caveman-mcp/hooks/hooks.json"), "utf8"));
    expect(hooks.hooks.PostToolUse[0].hooks[0].command).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the host expands it.
      'node "${CLAUDE_PLUGIN_ROOT}/server/cli.mjs" hook claude-code',
    );
  });

  it("names no path of the machine that built it", () => {
    // The repository, this node binary, and anything under the builder's home (a bare "/root" is
    // also a token of the tokenizer's vocabulary, so only paths inside it count).
    const machine = [REPO, process.execPath, `${homedir()}/.`, `${homedir()}/work`];
    for (const f of files(DIST)) {
      const text = readFileSync(f).toString("latin1");
      for (const p of machine) expect(text.includes(p), `${f} contains ${p}`).toBe(false);
    }
  });
});
