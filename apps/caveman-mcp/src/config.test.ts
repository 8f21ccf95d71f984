import { symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_ENGINE_TIMEOUT_MS as SERVER_DEFAULT } from "@caveman/mcp-server";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { DEFAULT_ENGINE_TIMEOUT_MS, loadConfig } from "./config.js";
import { ConfigError } from "./errors.js";

const home = tempDir("caveman-config-");
const base = { cwd: home, homedir: home, platform: "linux" };

describe("loadConfig", () => {
  it("uses embedded defaults with no flags and no environment", () => {
    const { command, config } = loadConfig({ ...base, argv: [], env: {} });
    expect(command).toEqual({ name: "serve" });
    expect(config).toMatchObject({
      roots: [home],
      families: ["compress", "edit"],
      store: { kind: "sqlite", path: join(home, ".caveman", "ccr.db") },
      chipDir: join(home, ".cache", "caveman-mcp", "chips"),
      chipMax: 30,
      chipTtlMs: undefined,
      maxInboundBytes: 16 * 1024 * 1024,
    });
  });

  it("lets argv beat env beat default", () => {
    const env = {
      CAVEMAN_TOOLS: "edit",
      CAVEMAN_CHIP_MAX: "5",
      CAVEMAN_CCR_DB: "/tmp/env.db",
      CAVEMAN_MAX_RESULT_BYTES: "2MiB",
    };
    const { config } = loadConfig({
      ...base,
      env,
      argv: ["--tools", "compress", "--db=/tmp/flag.db", "--chip-ttl", "60"],
    });
    expect(config.families).toEqual(["compress"]);
    expect(config.store).toEqual({ kind: "sqlite", path: "/tmp/flag.db" });
    expect(config.chipMax).toBe(5);
    expect(config.chipTtlMs).toBe(60_000);
    expect(config.maxResultBytes).toBe(2 * 1024 * 1024);
    expect(config.sources).toMatchObject({
      families: "flag",
      store: "flag",
      chipMax: "env",
      chipTtl: "flag",
    });
  });

  it("takes the engine budget from --engine-timeout-ms, then CAVEMAN_ENGINE_TIMEOUT_MS, else 4000 ms", () => {
    expect(loadConfig({ ...base, argv: [], env: {} }).config.engineTimeoutMs).toBe(4000);
    const env = { CAVEMAN_ENGINE_TIMEOUT_MS: "2500" };
    expect(loadConfig({ ...base, argv: [], env }).config.engineTimeoutMs).toBe(2500);
    expect(loadConfig({ ...base, argv: ["--engine-timeout-ms=900"], env }).config.engineTimeoutMs).toBe(900);
    expect(() => loadConfig({ ...base, argv: ["--engine-timeout-ms", "0"], env: {} })).toThrow(
      /--engine-timeout-ms \/ CAVEMAN_ENGINE_TIMEOUT_MS: "0" is not a positive whole number/,
    );
    expect(() => loadConfig({ ...base, argv: [], env: { CAVEMAN_ENGINE_TIMEOUT_MS: "700000" } })).toThrow(
      /over the maximum of 600000/,
    );
  });

  it("restates the server's default engine budget (config does not load the server to read it)", () => {
    expect(DEFAULT_ENGINE_TIMEOUT_MS).toBe(SERVER_DEFAULT);
  });

  it("reads roots from CAVEMAN_ROOTS as a path list and --root as a repeatable flag", () => {
    const a = tempDir("caveman-config-a-");
    const b = tempDir("caveman-config-b-");
    expect(loadConfig({ ...base, argv: [], env: { CAVEMAN_ROOTS: `${a}:${b}` } }).config.roots).toEqual([
      a,
      b,
    ]);
    expect(
      loadConfig({ ...base, argv: ["--root", b, "--root", a], env: { CAVEMAN_ROOTS: a } }).config.roots,
    ).toEqual([b, a]);
  });

  it("selects the memory store with --ephemeral or CAVEMAN_MCP_EPHEMERAL=1", () => {
    expect(loadConfig({ ...base, argv: ["--ephemeral"], env: {} }).config.store).toEqual({ kind: "memory" });
    expect(loadConfig({ ...base, argv: [], env: { CAVEMAN_MCP_EPHEMERAL: "1" } }).config.store).toEqual({
      kind: "memory",
    });
  });

  it.each([
    [["--chip-max", "0"], {}],
    [["--chip-max", "1.5"], {}],
    [[], { CAVEMAN_TOOLS: "" + "nope" }],
    [[], { CAVEMAN_MCP_EPHEMERAL: "maybe" }],
    [[], { CAVEMAN_CCR_DB: "relative/ccr.db" }],
    [["--max-inbound-bytes", "lots"], {}],
    [["--root"], {}],
    [["chips", "explode"], {}],
    [["compress", "a", "b"], {}],
    [[], { CAVEMAN_SQLITE_BINDING: "better_sqlite3.node" }],
    [[], { CAVEMAN_SQLITE_BINDING: "/definitely/not/here/better_sqlite3.node" }],
    [[], { CAVEMAN_SQLITE_BINDING: tmpdir() }],
    [["--chip-ttl", "999999999999"], {}],
    [["--max-result-bytes", "2GiB"], {}],
  ])("refuses %j %j with a ConfigError", (argv, env) => {
    expect(() => loadConfig({ ...base, argv: argv as string[], env: env as Record<string, string> })).toThrow(
      ConfigError,
    );
  });

  it("takes CAVEMAN_SQLITE_BINDING only from the environment, as an existing absolute file", () => {
    const binding = join(home, "better_sqlite3.node");
    writeFileSync(binding, "");
    expect(loadConfig({ ...base, argv: [], env: {} }).config.sqliteBinding).toBeUndefined();
    const { config } = loadConfig({ ...base, argv: [], env: { CAVEMAN_SQLITE_BINDING: binding } });
    expect(config.sqliteBinding).toBe(binding);
    expect(config.sources.sqliteBinding).toBe("env");
  });

  it("parses subcommands with their options anywhere on the line", () => {
    expect(
      loadConfig({ ...base, env: {}, argv: ["--json", "compress", "f.txt", "--hint", "tsc"] }).command,
    ).toEqual({
      name: "compress",
      file: "f.txt",
      json: true,
      hint: "tsc",
      query: undefined,
    });
    expect(loadConfig({ ...base, env: {}, argv: ["chips", "show", "chip://abc123"] }).command).toMatchObject({
      name: "chips",
      action: "show",
      id: "chip://abc123",
    });
  });

  it("refuses the file system root or the home directory as an implicit edit root, not an explicit one", () => {
    const project = tempDir("caveman-project-");
    const refusal = (cwd: string, argv: string[] = [], env: Record<string, string> = {}) =>
      loadConfig({ ...base, cwd, argv, env }).config.implicitRootRefusal;
    expect(refusal(home)).toMatch(/refusing to use .* your home directory.*--root DIR \(or CAVEMAN_ROOTS\)/);
    expect(refusal("/")).toMatch(/refusing to use \/ .*file system root.*--root DIR/);
    expect(refusal(project)).toBeUndefined();
    expect(refusal("/", ["--root", "/"])).toBeUndefined();
    expect(refusal(home, [], { CAVEMAN_ROOTS: project })).toBeUndefined();
    expect(refusal("/", ["--tools", "compress"])).toBeUndefined();
  });

  it("refuses the home directory also when HOME names it through a symlink", () => {
    const link = join(tempDir("caveman-link-"), "home");
    symlinkSync(home, link);
    const config = loadConfig({ ...base, homedir: link, cwd: home, argv: [], env: {} }).config;
    expect(config.implicitRootRefusal).toMatch(/your home directory.*--root DIR/);
  });
});
