// `install` / `uninstall` on real files in a throwaway HOME, with the real self-contained server
// (the platform package's bundle, which is what `npx caveman-mcp` runs) and no `claude` on PATH, so
// Claude Code gets the settings-file install. The plugin route runs in the host tier.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandbox } from "./helpers.js";
import { claudeBash, logText } from "./hookSamples.js";
import { type Box, BUNDLE, cli, jsonc, VERSION } from "./installHelpers.js";

const USER_SETTINGS = `{
    // my own settings, with a comment
    "model": "opus",
    "permissions": { "allow": ["Bash(ls:*)"] },
    "hooks": {
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "audit.sh" } ] } ]
    }
}
`;
const USER_MCP = '{"numStartups": 12, "mcpServers": {"other": {"command": "x"}}}';

function userBox(): Box & { settings: string; claudeJson: string } {
  const box = sandbox();
  const home = box.env.HOME!;
  mkdirSync(join(home, ".claude"), { recursive: true });
  const settings = join(home, ".claude", "settings.json");
  const claudeJson = join(home, ".claude.json");
  writeFileSync(settings, USER_SETTINGS, { mode: 0o640 });
  writeFileSync(claudeJson, USER_MCP);
  return { ...box, settings, claudeJson };
}

describe("install claude-code without Claude Code's plugin commands (user scope)", () => {
  it("keeps every edit the user made since, through an upgrade, and uninstall leaves nothing of ours", () => {
    const box = userBox();
    const dry = cli(box, ["install", "claude-code", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^\+.*hook claude-code/m);
    expect(readFileSync(box.settings, "utf8")).toBe(USER_SETTINGS);

    const first = cli(box, ["install", "claude-code"]);
    expect(first.code, first.stderr).toBe(0);
    const stable = join(
      box.env.HOME!,
      ".caveman",
      "app",
      VERSION,
      "plugins",
      "caveman-mcp",
      "server",
      "cli.mjs",
    );
    expect(first.stdout).toContain(`stable copy ${join(box.env.HOME!, ".caveman", "app", VERSION)}`);
    const installed = readFileSync(box.settings, "utf8");
    // Neighbours keep their bytes: the user's text is a prefix up to our insertion, which is our
    // PreToolUse entry beside the user's own in their PreToolUse array.
    expect(installed.startsWith(USER_SETTINGS.slice(0, USER_SETTINGS.indexOf(" ]\n    }")))).toBe(true);
    expect(installed).toContain('"command": "audit.sh" } ] }, {"matcher":"Bash"');
    expect(statSync(box.settings).mode & 0o777).toBe(0o640);
    const server = JSON.parse(readFileSync(box.claudeJson, "utf8")).mcpServers.caveman;
    // The stable copy, never the bundle it was installed from; the retrieve family alone.
    expect(server).toEqual({
      type: "stdio",
      command: process.execPath,
      args: [stable, "--tools", "retrieve"],
    });
    expect(JSON.stringify(server)).not.toContain(dirname(BUNDLE));
    expect(cli(box, ["install", "claude-code"]).stdout).toContain(`unchanged ${box.settings}`);

    // The registered hook runs as the host runs it (through the shell) and compresses.
    const hook = jsonc(readFileSync(box.settings, "utf8")).hooks.PostToolUse[0].hooks[0].command as string;
    writeFileSync(join(box.base, "roomy.json"), '{"budget_ms": 60000, "stdin_timeout_ms": 30000}');
    const ran = spawnSync("sh", ["-c", hook], {
      env: { ...box.env, CAVEMAN_HOOK_CONFIG: join(box.base, "roomy.json") },
      input: claudeBash("cat a.log", logText()),
      encoding: "utf8",
    });
    expect(JSON.parse(ran.stdout).hookSpecificOutput.updatedToolOutput.stdout).toContain("card_declined");

    // The user edits both files: a permission, another MCP server, projects, a counter.
    const edited = readFileSync(box.settings, "utf8").replace(
      '"Bash(ls:*)"]',
      '"Bash(ls:*)", "Bash(git:*)"]',
    );
    writeFileSync(box.settings, edited);
    const mcp = readFileSync(box.claudeJson, "utf8")
      .replace('"numStartups": 12', '"numStartups": 13, "projects": {"/p": {"allowedTools": []}}')
      .replace('"other": {"command": "x"}', '"other": {"command": "x"}, "github": {"command": "gh-mcp"}');
    writeFileSync(box.claudeJson, mcp);

    // An upgrade changes our command; the user's edits stay.
    const up = cli(box, ["install", "claude-code", "--command", "caveman-next --fast"]);
    expect(up.code, up.stderr).toBe(0);
    const upgraded = jsonc(readFileSync(box.settings, "utf8"));
    expect(upgraded.permissions.allow).toEqual(["Bash(ls:*)", "Bash(git:*)"]);
    expect(upgraded.hooks.PostToolUse).toHaveLength(1);
    expect(upgraded.hooks.PostToolUse[0].hooks[0].command).toBe("caveman-next --fast hook claude-code");

    const un = cli(box, ["uninstall", "claude-code"]);
    expect(un.code, un.stderr).toBe(0);
    expect(readFileSync(box.settings, "utf8")).toBe(
      USER_SETTINGS.replace('"Bash(ls:*)"]', '"Bash(ls:*)", "Bash(git:*)"]'),
    );
    expect(readFileSync(box.claudeJson, "utf8")).toBe(
      '{"numStartups": 13, "projects": {"/p": {"allowedTools": []}}, "mcpServers": {"other": {"command": "x"}, "github": {"command": "gh-mcp"}}}',
    );
    // Backups were kept for recovery by hand, and none was restored over the user's edits.
    const backups = join(box.env.HOME!, ".caveman", "backups");
    expect(readdirSync(backups).length).toBe(2);
    // The stable copy went with the last install that used it.
    expect(existsSync(join(box.env.HOME!, ".caveman", "app"))).toBe(false);
  });

  it("a hand-written mcpServers.caveman is the user's: install refuses and changes nothing", () => {
    const box = userBox();
    const mine =
      '{"mcpServers": {"caveman": {"command": "npx", "args": ["-y", "caveman-mcp", "--root", "/src/app"]}}}';
    writeFileSync(box.claudeJson, mine);
    const r = cli(box, ["install", "claude-code"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/install_conflict: .*mcpServers\.caveman is not one an install wrote/);
    expect(readFileSync(box.claudeJson, "utf8")).toBe(mine);
    expect(readFileSync(box.settings, "utf8")).toBe(USER_SETTINGS);
  });

  it("files install created are removed again; the edit tools are one flag away", () => {
    const box = sandbox();
    const r = cli(box, ["install", "claude-code", "--tools", "retrieve,edit"]);
    expect(r.code, r.stderr).toBe(0);
    const claudeJson = join(box.env.HOME!, ".claude.json");
    expect(JSON.parse(readFileSync(claudeJson, "utf8")).mcpServers.caveman.args.slice(-2)).toEqual([
      "--tools",
      "retrieve,edit",
    ]);
    cli(box, ["uninstall", "claude-code"]);
    expect(existsSync(claudeJson)).toBe(false);
    expect(existsSync(join(box.env.HOME!, ".claude", "settings.json"))).toBe(false);
  });

  it("follows a symlinked settings file to the user's own file, keeping the link", () => {
    const box = sandbox();
    const dotfiles = join(box.base, "dotfiles");
    mkdirSync(dotfiles);
    mkdirSync(join(box.env.HOME!, ".claude"), { recursive: true });
    writeFileSync(join(dotfiles, "settings.json"), '{ "model": "opus" }\n');
    symlinkSync(join(dotfiles, "settings.json"), join(box.env.HOME!, ".claude", "settings.json"));
    expect(cli(box, ["install", "claude-code"]).code).toBe(0);
    expect(readFileSync(join(dotfiles, "settings.json"), "utf8")).toContain("hook claude-code");
    cli(box, ["uninstall", "claude-code"]);
    expect(readFileSync(join(dotfiles, "settings.json"), "utf8")).toBe('{ "model": "opus" }\n');
  });

  it("refuses odd settings files with a clear code, never a stack trace, changing nothing", () => {
    for (const [name, make] of [
      ["not JSON", (f: string) => writeFileSync(f, "{ nope")],
      ["a directory", (f: string) => mkdirSync(f)],
      ["not UTF-8", (f: string) => writeFileSync(f, Buffer.from([0x7b, 0xff, 0x7d]))],
      ["a dangling link", (f: string) => symlinkSync(join(dirname(f), "gone"), f)],
    ] as const) {
      const box = sandbox();
      const file = join(box.env.HOME!, ".claude", "settings.json");
      mkdirSync(dirname(file), { recursive: true });
      make(file);
      const r = cli(box, ["install", "claude-code"]);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(/^caveman-mcp: settings_(not_json|unreadable): /);
      expect(r.stderr, name).not.toMatch(/\n\s+at /);
      expect(existsSync(join(box.env.HOME!, ".claude.json")), name).toBe(false);
    }
  });
});

describe("install: hosts", () => {
  it("an unknown host or a typo is exit 2 with the list and the closest name", () => {
    const box = sandbox();
    for (const [typed, meant] of [
      ["claude", "claude-code"],
      ["gemni", "gemini"],
      ["cursr", "cursor"],
    ]) {
      const r = cli(box, ["install", typed!]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown host "${typed}". Did you mean "${meant}"?`);
      expect(r.stderr).toContain("claude-code, claude-desktop, cursor");
    }
    expect(cli(box, ["uninstall", "nothing-like-it"]).stderr).not.toContain("Did you mean");
  });

  it("gemini: AfterTool hook and a trusted retrieve-only server on the stable copy, undone by uninstall", () => {
    const box = sandbox();
    expect(cli(box, ["install", "gemini"]).code).toBe(0);
    const file = join(box.env.HOME!, ".gemini", "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    expect(s.hooks.AfterTool[0].hooks[0].command).toMatch(/\.caveman\/app\/.*\/cli\.mjs hook gemini$/);
    expect(s.mcpServers.caveman).toMatchObject({
      trust: true,
      args: [expect.any(String), "--tools", "retrieve"],
    });
    cli(box, ["uninstall", "gemini"]);
    expect(existsSync(file)).toBe(false);
  });

  it("codex gets the proxy line and nothing is written", () => {
    const box = sandbox();
    const r = cli(box, ["install", "codex"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/proxy -- <command>/);
    expect(existsSync(join(box.env.HOME!, ".codex"))).toBe(false);
    expect(existsSync(join(box.env.HOME!, ".caveman"))).toBe(false);
  });
});
