// `install` / `uninstall` / `doctor` on real files in a throwaway HOME, with the real binary.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";
import { claudeBash, logText } from "./hookSamples.js";

function cli(box: Sandbox, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...box.env, ...env },
    cwd: box.root,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const USER_SETTINGS = `{
    // my own settings, with a comment
    "model": "opus",
    "permissions": { "allow": ["Bash(ls:*)"] },
    "hooks": {
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "audit.sh" } ] } ]
    }
}
`;

describe("install claude-code (user scope)", () => {
  it("adds the hook and the server, keeps everything else, is idempotent, and uninstall restores the bytes", () => {
    const box = sandbox();
    const home = box.env.HOME!;
    mkdirSync(join(home, ".claude"), { recursive: true });
    const settings = join(home, ".claude", "settings.json");
    const claudeJson = join(home, ".claude.json");
    writeFileSync(settings, USER_SETTINGS, { mode: 0o640 });
    writeFileSync(claudeJson, '{"numStartups": 12, "mcpServers": {"other": {"command": "x"}}}');

    const dry = cli(box, ["install", "claude-code", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would change ${settings}`);
    expect(dry.stdout).toMatch(/^\+.*hook claude-code/m);
    expect(readFileSync(settings, "utf8")).toBe(USER_SETTINGS);

    const first = cli(box, ["install", "claude-code"]);
    expect(first.code).toBe(0);
    const after = readFileSync(settings, "utf8");
    expect(after).toContain("// my own settings, with a comment");
    expect(after).toContain('"permissions": { "allow": ["Bash(ls:*)"] },');
    expect(after).toContain('"command": "audit.sh"');
    expect(statSync(settings).mode & 0o777).toBe(0o640);
    const mcp = JSON.parse(readFileSync(claudeJson, "utf8"));
    expect(mcp.numStartups).toBe(12);
    expect(mcp.mcpServers.other).toEqual({ command: "x" });
    expect(mcp.mcpServers.caveman.args.slice(-2)).toEqual(["--tools", "retrieve,edit"]);

    const again = cli(box, ["install", "claude-code"]);
    expect(again.stdout).toContain(`unchanged ${settings}`);
    expect(readFileSync(settings, "utf8")).toBe(after);

    // The installed hook command runs as the host would run it (through the shell).
    const group = (
      JSON.parse(after.replace(/^\s*\/\/.*$/m, "")) as {
        hooks: { PostToolUse: Array<{ hooks: Array<{ command: string }> }> };
      }
    ).hooks.PostToolUse[0]!;
    // A roomy budget: on a loaded machine the default one may (correctly) pass the original.
    writeFileSync(join(box.base, "roomy.json"), '{"budget_ms": 60000, "stdin_timeout_ms": 30000}');
    const ran = spawnSync("sh", ["-c", group.hooks[0]!.command], {
      env: { ...box.env, CAVEMAN_HOOK_CONFIG: join(box.base, "roomy.json") },
      input: claudeBash("cat a.log", logText()),
      encoding: "utf8",
    });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout).hookSpecificOutput.updatedToolOutput.stdout).toContain("card_declined");

    const doctor = cli(box, ["doctor"]);
    expect(doctor.stdout).toMatch(/ok {3}claude-code install: registered in .*settings\.json/);
    expect(doctor.stdout).toMatch(/ok {3}claude-code hook: .*accepted shape; original retrieved byte-exact/);
    expect(doctor.stdout).toMatch(/ok {3}gemini hook: /);

    const un = cli(box, ["uninstall", "claude-code"]);
    expect(un.code).toBe(0);
    expect(readFileSync(settings, "utf8")).toBe(USER_SETTINGS);
    expect(readFileSync(claudeJson, "utf8")).toBe(
      '{"numStartups": 12, "mcpServers": {"other": {"command": "x"}}}',
    );
  });

  it("uninstall after the user edited the file removes only our entries", () => {
    const box = sandbox();
    const home = box.env.HOME!;
    cli(box, ["install", "claude-code"]);
    const settings = join(home, ".claude", "settings.json");
    const edited = readFileSync(settings, "utf8").replace(/^\{/, '{\n  "theme": "dark",');
    writeFileSync(settings, edited);
    const un = cli(box, ["uninstall", "claude-code"]);
    expect(un.stdout).toContain("removed our entries");
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ theme: "dark" });
    // ~/.claude.json did not exist before: it is removed again.
    expect(existsSync(join(home, ".claude.json"))).toBe(false);
  });

  it("project scope writes .claude/settings.json and .mcp.json in the working directory", () => {
    const box = sandbox();
    cli(box, ["install", "claude-code", "--scope", "project"]);
    expect(JSON.parse(readFileSync(join(box.root, ".mcp.json"), "utf8")).mcpServers.caveman.type).toBe(
      "stdio",
    );
    expect(readFileSync(join(box.root, ".claude", "settings.json"), "utf8")).toContain("hook claude-code");
    cli(box, ["uninstall", "claude-code", "--scope", "project"]);
    expect(existsSync(join(box.root, ".mcp.json"))).toBe(false);
  });

  it("writes through a symlinked settings file, keeping the link", () => {
    const box = sandbox();
    const dotfiles = join(box.base, "dotfiles");
    mkdirSync(dotfiles);
    mkdirSync(join(box.env.HOME!, ".claude"), { recursive: true });
    writeFileSync(join(dotfiles, "settings.json"), '{ "model": "opus" }\n');
    const link = join(box.env.HOME!, ".claude", "settings.json");
    symlinkSync(join(dotfiles, "settings.json"), link);
    cli(box, ["install", "claude-code"]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, "settings.json"), "utf8")).toContain("hook claude-code");
    cli(box, ["uninstall", "claude-code"]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, "settings.json"), "utf8")).toBe('{ "model": "opus" }\n');
  });

  it("refuses a settings file that is not JSON, changing nothing", () => {
    const box = sandbox();
    mkdirSync(join(box.env.HOME!, ".claude"), { recursive: true });
    writeFileSync(join(box.env.HOME!, ".claude", "settings.json"), "{ nope");
    const r = cli(box, ["install", "claude-code"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a JSON object/);
    expect(readFileSync(join(box.env.HOME!, ".claude", "settings.json"), "utf8")).toBe("{ nope");
  });
});

describe("install for other hosts", () => {
  it("gemini: AfterTool hook plus a trusted retrieve-only server, undone by uninstall", () => {
    const box = sandbox();
    cli(box, ["install", "gemini"]);
    const file = join(box.env.HOME!, ".gemini", "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    expect(s.hooks.AfterTool[0].hooks[0].command).toMatch(/hook gemini$/);
    expect(s.mcpServers.caveman).toMatchObject({ trust: true });
    expect(s.mcpServers.caveman.args.slice(-2)).toEqual(["--tools", "retrieve"]);
    cli(box, ["uninstall", "gemini"]);
    expect(existsSync(file)).toBe(false);
  });

  it("codex prints the proxy line and writes nothing", () => {
    const box = sandbox();
    const r = cli(box, ["install", "codex"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/proxy -- <command>/);
    expect(existsSync(join(box.env.HOME!, ".codex"))).toBe(false);
  });
});
