// Choosing the SQLite driver for this process. "auto" takes node:sqlite when the running Node
// has it (22.13+) and better-sqlite3 otherwise; an explicit choice is honoured or refused. When
// nothing loads, the error names the real cause (node:sqlite missing on this Node, no binding
// compiled, a binding built for another Node's ABI, a binding file missing) and the fix for it.
import { CcrStoreError } from "../errors.js";
import { betterSqliteDriver } from "./better-driver.js";
import type { SqlDriver, SqliteDriverChoice } from "./driver.js";
import { nodeHasSqlite, nodeSqliteDriver } from "./node-driver.js";

const chosen = new Map<string, SqlDriver>();

/** The driver for `choice`, loaded and probed once per process. Throws store_driver_unavailable. */
export function selectDriver(choice: SqliteDriverChoice, nativeBinding: string | undefined): SqlDriver {
  const key = `${choice}\0${nativeBinding ?? ""}`;
  const known = chosen.get(key);
  if (known !== undefined) return known;
  const driver = load(choice, nativeBinding);
  chosen.set(key, driver);
  return driver;
}

function load(choice: SqliteDriverChoice, nativeBinding: string | undefined): SqlDriver {
  const node = process.version;
  if (choice !== "better-sqlite3") {
    const builtin = nodeSqliteDriver();
    if (builtin !== null) return builtin;
    if (choice === "node:sqlite") {
      throw unavailable(
        `${missingNodeSqlite(node)}. Fix: run on Node 22.13 or newer, or choose the better-sqlite3 driver`,
      );
    }
  }
  const better = betterSqliteDriver(nativeBinding);
  try {
    better.probe();
    return better;
  } catch (err) {
    const cause = bindingProblem(err, nativeBinding);
    const prefix = choice === "auto" ? `${missingNodeSqlite(node)}, and ` : "";
    const fix =
      choice === "auto" || nodeHasSqlite(node)
        ? `Fix: ${cause.fix}, or run on Node 22.13 or newer, which has SQLite built in and needs no binding`
        : `Fix: ${cause.fix}`;
    throw unavailable(`${prefix}${cause.what}. ${fix}`, err);
  }
}

function unavailable(message: string, cause?: unknown): CcrStoreError {
  return new CcrStoreError("store_driver_unavailable", `no SQLite driver loads: ${message}`, { cause });
}

function missingNodeSqlite(node: string): string {
  return nodeHasSqlite(node)
    ? `node:sqlite is disabled in Node ${node} (started with --no-experimental-sqlite?)`
    : `Node ${node} has no node:sqlite (it arrived in 22.13)`;
}

/** What went wrong loading better-sqlite3's binding, and the fix for exactly that. */
export function bindingProblem(
  err: unknown,
  nativeBinding: string | undefined,
): { what: string; fix: string } {
  const text = err instanceof Error ? err.message : String(err);
  const where = nativeBinding === undefined ? "better-sqlite3's binding" : `the binding ${nativeBinding}`;
  const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*?NODE_MODULE_VERSION (\d+)/.exec(text);
  if (abi !== null) {
    return {
      what: `${where} was compiled for another Node (ABI ${abi[1]}; this Node ${process.version} needs ABI ${abi[2]})`,
      fix: "rebuild better-sqlite3 with this Node (`npm rebuild better-sqlite3`, against this Node's own headers)",
    };
  }
  if (/Could not locate the bindings file/.test(text)) {
    return {
      what: "better-sqlite3 is installed but has no compiled binding (its install step did not build one)",
      fix: "rebuild it with this Node (`npm rebuild better-sqlite3`; it needs a C++ compiler and this Node's headers)",
    };
  }
  const code = (err as { code?: unknown }).code;
  if (nativeBinding !== undefined && (code === "MODULE_NOT_FOUND" || /Cannot find module/.test(text))) {
    return {
      what: `the binding file ${nativeBinding} does not exist`,
      fix: "point CAVEMAN_SQLITE_BINDING at an existing better_sqlite3.node, or unset it",
    };
  }
  // A loader that knows better (a bundle's binding shim) may attach its own fix to the error.
  const own = (err as { fix?: unknown }).fix;
  return {
    what: `${where} failed to load (${text.split("\n")[0]})`,
    fix: typeof own === "string" ? own : "reinstall or rebuild better-sqlite3 for this machine",
  };
}
