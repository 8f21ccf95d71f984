import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const fresh = () => {
  const home = tempDir("caveman-hooks-config-");
  return { cwd: home, homedir: home, platform: "linux", home };
};

describe("hook settings in loadConfig", () => {
  it("defaults without a file; the file, then the environment, override them", () => {
    const b = fresh();
    const none = loadConfig({ ...b, argv: ["hook", "claude-code"], env: {} }).config.hooks;
    expect(none).toMatchObject({
      fileFound: false,
      settingsError: undefined,
      file: join(b.home, ".caveman", "hooks.json"),
    });
    expect(none.settings).toMatchObject({ enabled: true, floorTokens: 500, budgetMs: 3000 });
    mkdirSync(join(b.home, ".caveman"));
    writeFileSync(join(b.home, ".caveman", "hooks.json"), '{"floor_tokens": 900, "deny": ["Read"]}');
    const file = loadConfig({ ...b, argv: [], env: {} }).config.hooks;
    expect(file.settings).toMatchObject({ floorTokens: 900, deny: ["Read"], enabled: true });
    const env = loadConfig({ ...b, argv: [], env: { CAVEMAN_HOOK: "off", CAVEMAN_HOOK_FLOOR: "50" } }).config
      .hooks;
    expect(env.settings).toMatchObject({ floorTokens: 50, enabled: false });
    expect(env.settingsError).toBeUndefined();
  });

  it("CAVEMAN_HOOK_CONFIG and CLAUDE_CONFIG_DIR move the files", () => {
    const b = fresh();
    writeFileSync(join(b.home, "h.json"), '{"enabled": false}');
    const c = loadConfig({
      ...b,
      argv: [],
      env: { CAVEMAN_HOOK_CONFIG: join(b.home, "h.json"), CLAUDE_CONFIG_DIR: join(b.home, "cc") },
    }).config.hooks;
    expect(c.settings.enabled).toBe(false);
    expect(c.claudeDir).toBe(join(b.home, "cc"));
    expect(c.claudeJson).toBe(join(b.home, "cc", ".claude.json"));
    expect(c.persistRoots).toEqual([join(b.home, "cc", "projects")]);
  });

  it.each([
    ['{"floor": 3}', {}, /unknown key "floor"/],
    ["{nope", {}, /not JSON/],
    ["{}", { CAVEMAN_HOOK: "maybe" }, /CAVEMAN_HOOK: "maybe"/],
    ["{}", { CAVEMAN_HOOK_FLOOR: "lots" }, /CAVEMAN_HOOK_FLOOR/],
  ])(
    "a bad setting (%s) turns the hooks off and is reported, without stopping the server",
    (text, env, message) => {
      const b = fresh();
      mkdirSync(join(b.home, ".caveman"));
      writeFileSync(join(b.home, ".caveman", "hooks.json"), text);
      const { command, config } = loadConfig({ ...b, argv: [], env });
      expect(command).toEqual({ name: "serve" });
      expect(config.hooks.settingsError).toMatch(message);
      expect(config.hooks.settings.enabled).toBe(false);
    },
  );

  it("refuses a settings path that is not a regular file with hook_settings_invalid", () => {
    const b = fresh();
    mkdirSync(join(b.home, ".caveman", "hooks.json"), { recursive: true });
    const { config } = loadConfig({ ...b, argv: [], env: {} });
    expect(config.hooks.settingsError).toMatch(/hook_settings_invalid: is a directory/);
    expect(config.hooks.settings.enabled).toBe(false);
  });

  it("parses the new subcommands", () => {
    const b = fresh();
    expect(loadConfig({ ...b, argv: ["proxy", "node", "srv.js", "--port", "3"], env: {} }).command).toEqual({
      name: "proxy",
      command: "node",
      args: ["srv.js", "--port", "3"],
    });
    expect(
      loadConfig({ ...b, argv: ["--db", "/tmp/x.db", "proxy", "--", "srv", "--db", "y"], env: {} }).command,
    ).toEqual({
      name: "proxy",
      command: "srv",
      args: ["--db", "y"],
    });
    expect(
      loadConfig({ ...b, argv: ["install", "gemini", "--scope", "project", "--dry-run"], env: {} }).command,
    ).toEqual({
      name: "install",
      host: "gemini",
      scope: "project",
      dryRun: true,
    });
    expect(() => loadConfig({ ...b, argv: ["hook", "vscode"], env: {} })).toThrow(/name the host/);
    expect(() => loadConfig({ ...b, argv: ["install", "gemini", "--scope", "team"], env: {} })).toThrow(
      /--scope/,
    );
    expect(loadConfig({ ...b, argv: ["--tools", "retrieve,edit"], env: {} }).config.families).toEqual([
      "retrieve",
      "edit",
    ]);
  });
});
