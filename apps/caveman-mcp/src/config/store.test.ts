// Where originals and chips live, from flags and variables, through loadConfig: the store table
// that used to live in ccr-store, and the one rule for blank values, checked on every path variable.
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { ConfigError } from "../errors.js";

const home = tempDir("caveman-store-config-");
const load = (env: Record<string, string>, argv: string[] = []) =>
  loadConfig({ argv, env, cwd: home, homedir: home, platform: "linux" }).config;

describe("the CCR store location", () => {
  it.each([
    ["defaults to ~/.caveman/ccr.db", {}, { kind: "sqlite", path: join(home, ".caveman", "ccr.db") }],
    ["uses CAVEMAN_HOME/ccr.db", { CAVEMAN_HOME: "/srv/cave" }, { kind: "sqlite", path: "/srv/cave/ccr.db" }],
    [
      "prefers CAVEMAN_CCR_DB over CAVEMAN_HOME",
      { CAVEMAN_CCR_DB: "/data/x.db", CAVEMAN_HOME: "/srv/cave" },
      { kind: "sqlite", path: "/data/x.db" },
    ],
    [
      "expands ~/ against the homedir",
      { CAVEMAN_CCR_DB: "~/db/c.db" },
      { kind: "sqlite", path: join(home, "db/c.db") },
    ],
    [
      "normalises dot segments",
      { CAVEMAN_HOME: "/srv/./cave/../cave2/" },
      { kind: "sqlite", path: "/srv/cave2/ccr.db" },
    ],
    [
      "selects memory for EPHEMERAL=1, over a database path",
      { CAVEMAN_MCP_EPHEMERAL: "1", CAVEMAN_CCR_DB: "/data/x.db" },
      { kind: "memory" },
    ],
    ["accepts true/yes/on for EPHEMERAL", { CAVEMAN_MCP_EPHEMERAL: " TRUE " }, { kind: "memory" }],
    [
      "keeps sqlite for EPHEMERAL=0",
      { CAVEMAN_MCP_EPHEMERAL: "0" },
      { kind: "sqlite", path: join(home, ".caveman", "ccr.db") },
    ],
  ])("%s", (_name, env, expected) => {
    expect(load(env).store).toEqual(expected);
  });

  it.each([
    [
      "a relative CAVEMAN_CCR_DB",
      { CAVEMAN_CCR_DB: "ccr.db" },
      /CAVEMAN_CCR_DB="ccr.db" must be an absolute path/,
    ],
    [
      "a relative CAVEMAN_HOME",
      { CAVEMAN_HOME: "./cave" },
      /CAVEMAN_HOME=".\/cave" must be an absolute path/,
    ],
    [
      "an unknown EPHEMERAL value",
      { CAVEMAN_MCP_EPHEMERAL: "maybe" },
      /CAVEMAN_MCP_EPHEMERAL="maybe" is not understood/,
    ],
  ])("refuses %s with a ConfigError naming the variable", (_name, env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it.each([
    ["a relative homedir", "alice"],
    ["an empty homedir", ""],
  ])("refuses %s with a ConfigError when the store would live under it", (_name, homedir) => {
    const start = () => loadConfig({ argv: [], env: {}, cwd: home, homedir, platform: "linux" });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/homedir must be an absolute path/);
  });

  it("lets --ephemeral and --db beat every variable", () => {
    const env = { CAVEMAN_MCP_EPHEMERAL: "maybe", CAVEMAN_CCR_DB: "relative" };
    expect(load(env, ["--ephemeral"]).store).toEqual({ kind: "memory" });
    expect(load(env, ["--db", "x.db"]).store).toEqual({ kind: "sqlite", path: join(home, "x.db") });
  });
});

describe("one rule for blank variables: unset, empty or only whitespace means unset", () => {
  const blanks = ["", " ", "\t \n"];
  it.each(blanks)("applies to the database and chip paths alike (value %j)", (blank) => {
    const config = load({
      CAVEMAN_MCP_EPHEMERAL: blank,
      CAVEMAN_CCR_DB: blank,
      CAVEMAN_HOME: blank,
      CAVEMAN_CHIP_DIR: blank,
      XDG_CACHE_HOME: blank,
    });
    expect(config.store).toEqual({ kind: "sqlite", path: join(home, ".caveman", "ccr.db") });
    expect(config.chipDir).toBe(join(home, ".cache", "caveman-mcp", "chips"));
    expect(config.sources.store).toBe("default");
    expect(config.sources.chipDir).toBe("default");
    expect(config.hooks.cavemanHome).toBe(join(home, ".caveman"));
  });

  it("falls through a blank CAVEMAN_CCR_DB to CAVEMAN_HOME, and a blank chip dir to XDG_CACHE_HOME", () => {
    const config = load({
      CAVEMAN_CCR_DB: "  ",
      CAVEMAN_HOME: "/srv/cave",
      CAVEMAN_CHIP_DIR: " ",
      XDG_CACHE_HOME: "/xdg",
    });
    expect(config.store).toEqual({ kind: "sqlite", path: "/srv/cave/ccr.db" });
    expect(config.chipDir).toBe("/xdg/caveman-mcp/chips");
    expect(config.sources).toMatchObject({ store: "env", chipDir: "default" });
  });

  it("passes the Windows app data directory to the chip store", () => {
    const config = loadConfig({
      argv: [],
      env: { LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" },
      cwd: home,
      homedir: home,
      platform: "win32",
    }).config;
    expect(config.chipDir).toBe("C:\\Users\\u\\AppData\\Local\\caveman-mcp\\chips");
  });
});
