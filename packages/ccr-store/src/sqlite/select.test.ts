// Choosing a SQLite driver: node:sqlite where this Node has it, better-sqlite3 elsewhere, and a
// refusal that names the real cause and its fix when neither loads.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers.js";
import { nodeHasSqlite } from "./node-driver.js";
import { bindingProblem, selectDriver } from "./select.js";
import { openSqliteStore } from "./store.js";

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

describe("selectDriver", () => {
  it("knows which Node releases carry node:sqlite without a flag", () => {
    const table: Array<[string, boolean]> = [
      ["v20.19.0", false],
      ["v20.20.2", false],
      ["v22.12.0", false],
      ["v22.13.0", true],
      ["v22.23.5", true],
      ["v23.3.0", false],
      ["v23.4.0", true],
      ["v24.0.0", true],
      ["v26.12.1", true],
    ];
    for (const [version, has] of table) expect(nodeHasSqlite(version), version).toBe(has);
  });

  it("picks node:sqlite in auto mode exactly when this Node has it", () => {
    const driver = selectDriver("auto", undefined);
    expect(driver.name).toBe(nodeHasSqlite(process.version) ? "node:sqlite" : "better-sqlite3");
  });

  it("refuses node:sqlite by name on a Node without it, and serves it where it exists", () => {
    if (nodeHasSqlite(process.version)) {
      expect(selectDriver("node:sqlite", undefined).name).toBe("node:sqlite");
    } else {
      expect(() => selectDriver("node:sqlite", undefined)).toThrow(
        /store_driver_unavailable: .*has no node:sqlite \(it arrived in 22\.13\)\. Fix: run on Node 22\.13 or newer/,
      );
    }
  });

  it("names a missing binding file as such", () => {
    const missing = join(dir, "missing.node");
    const err = captured(() => selectDriver("better-sqlite3", missing));
    expect(err).toMatchObject({ code: "store_driver_unavailable" });
    expect(String(err)).toContain(`the binding file ${missing} does not exist`);
    expect(String(err)).toContain("point CAVEMAN_SQLITE_BINDING at an existing better_sqlite3.node");
  });

  it("names a binding that fails to load, and opening a store with it fails the same way", () => {
    const bogus = join(dir, "bogus.node");
    writeFileSync(bogus, "not a shared object");
    expect(() => selectDriver("better-sqlite3", bogus)).toThrow(
      /store_driver_unavailable: .*the binding .*bogus\.node failed to load/,
    );
    expect(() =>
      openSqliteStore({ path: join(dir, "ccr.db"), driver: "better-sqlite3", nativeBinding: bogus }),
    ).toThrow(expect.objectContaining({ code: "store_driver_unavailable" }));
  });

  it("explains a binding built for another Node's ABI and says how to fix it", () => {
    const text =
      "The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127. Please try re-compiling or re-installing";
    const problem = bindingProblem(Object.assign(new Error(text), { code: "ERR_DLOPEN_FAILED" }), undefined);
    expect(problem.what).toContain("was compiled for another Node (ABI 115;");
    expect(problem.what).toContain("needs ABI 127");
    expect(problem.fix).toContain("rebuild better-sqlite3 with this Node");
    const unbuilt = bindingProblem(new Error("Could not locate the bindings file. Tried: …"), undefined);
    expect(unbuilt.what).toContain("has no compiled binding");
    const shim = Object.assign(new Error("this build carries no binding for Node ABI 115"), {
      code: "MODULE_NOT_FOUND",
      fix: "install the platform package",
    });
    expect(bindingProblem(shim, undefined)).toEqual({
      what: "better-sqlite3's binding failed to load (this build carries no binding for Node ABI 115)",
      fix: "install the platform package",
    });
  });

  it("refuses an unknown driver name with invalid_config", () => {
    expect(() => openSqliteStore({ path: join(dir, "ccr.db"), driver: "sqlite4" as never })).toThrow(
      expect.objectContaining({ code: "invalid_config" }),
    );
  });
});

function captured(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("expected a throw");
}
