import { mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { SETTINGS } from "./settings.js";
import { parseSetting } from "./values.js";

describe("parseSetting", () => {
  it("reads every row of the table, giving its default when no value is given", () => {
    const cwd = tempDir("caveman-values-");
    for (const s of SETTINGS) {
      const value = parseSetting(s.key, undefined, { cwd, home: cwd });
      if (s.key === "roots") expect(value).toEqual([cwd]);
      else expect(value, s.key).toEqual("default" in s ? s.default : undefined);
    }
  });

  it("names flag and variable for a bad number, and only the giver for a bad list", () => {
    const where = { cwd: "/", home: "/" };
    expect(() => parseSetting("chipMax", "0", { ...where, fromFlag: true })).toThrow(
      new ConfigError('--chip-max / CAVEMAN_CHIP_MAX: "0" is not a positive whole number'),
    );
    expect(() => parseSetting("engineTimeoutMs", "600001", where)).toThrow(
      "--engine-timeout-ms / CAVEMAN_ENGINE_TIMEOUT_MS: 600001 is over the maximum of 600000",
    );
    expect(() => parseSetting("families", "edit,nope", { ...where, fromFlag: true })).toThrow(
      '--tools: unknown tool family "nope" (use compress, retrieve, edit)',
    );
    expect(() => parseSetting("families", " , ", where)).toThrow(
      "CAVEMAN_TOOLS: name at least one tool family (compress, retrieve, edit)",
    );
    expect(parseSetting("families", "edit, compress,edit", where)).toEqual(["edit", "compress"]);
    expect(parseSetting("maxResultBytes", "2 MiB", where)).toBe(2 * 1024 * 1024);
  });

  it("reads a switch's on/off words in any case, and says so of any other word", () => {
    const where = { cwd: "/", home: "/" };
    expect(parseSetting("hook", "OFF", where)).toBe(false);
    expect(parseSetting("hook", "Yes", where)).toBe(true);
    expect(() => parseSetting("hook", "maybe", where)).toThrow('CAVEMAN_HOOK: "maybe" is not on or off');
    expect(() => parseSetting("ephemeral", "maybe", where)).toThrow(
      'CAVEMAN_MCP_EPHEMERAL="maybe" is not understood; use 1 to keep originals in memory or 0 for the database',
    );
  });

  it("resolves a flag's path against the working directory, but wants a variable's absolute", () => {
    const where = { cwd: "/work", home: "/home/u" };
    expect(parseSetting("db", "x.db", { ...where, fromFlag: true })).toBe("/work/x.db");
    expect(parseSetting("db", "~/a/../x.db", where)).toBe("/home/u/x.db");
    expect(() => parseSetting("db", "x.db", where)).toThrow('CAVEMAN_CCR_DB="x.db" must be an absolute path');
    expect(parseSetting("chipDir", "c", where)).toBe("/work/c");
  });

  it("wants existing directories for roots and an existing absolute file for a file setting", () => {
    const cwd = tempDir("caveman-values-");
    mkdirSync(join(cwd, "a"));
    writeFileSync(join(cwd, "b.node"), "");
    const where = { cwd, home: cwd };
    expect(parseSetting("roots", ["a", " "], { ...where, fromFlag: true })).toEqual([join(cwd, "a")]);
    expect(() => parseSetting("roots", `a${delimiter}b.node`, where)).toThrow(
      `CAVEMAN_ROOTS: ${join(cwd, "b.node")} is not a directory`,
    );
    expect(parseSetting("sqliteBinding", join(cwd, "b.node"), where)).toBe(join(cwd, "b.node"));
    expect(() => parseSetting("sqliteBinding", "b.node", where)).toThrow(
      'CAVEMAN_SQLITE_BINDING: "b.node" must be an absolute path to a .node file',
    );
  });
});
