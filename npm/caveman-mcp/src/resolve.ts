// The launcher's resolution, as a pure function of injected facts: no fs, env or process
// access here, so every combination of host, installed packages and override is a table
// row in the tests. Order: CAVEMAN_MCP_BINARY override (must exist); the host's platform
// package (on Node 22.13+ it needs no SQLite binding: the server uses node:sqlite); a
// documented emulation (darwin-arm64 -> darwin-x64); the launcher's portable server with
// node:sqlite, or an ordinary better-sqlite3 if one loads, else with the memory store, which
// the notice (and the server's doctor) call out with the fix. It never downloads anything.
import { LauncherError } from "./errors.js";
import { abisIn, BINDING_ENV, bindingFile, OVERRIDE_ENV, SERVER_FILE } from "./layout.js";
import {
  EMULATION,
  type Libc,
  PLATFORM_SCOPE,
  packageName,
  type Target,
  targetById,
  targetsForHost,
} from "./targets.js";

/** Facts about the running host. */
export interface HostFacts {
  readonly platform: string;
  readonly arch: string;
  readonly libc: Libc | null;
  /** How the libc verdict was reached, for diagnostics. */
  readonly libcSource: string;
  /** `process.version`. */
  readonly node: string;
  /** `process.versions.modules`: the ABI a native binding must be built for. */
  readonly abi: string;
  /** Whether this Node has node:sqlite built in (22.13+): then the server needs no binding at all. */
  readonly builtinSqlite: boolean;
  /** `process.execPath`: the Node that runs JavaScript servers. */
  readonly execPath: string;
}

/** An ordinary `better-sqlite3` found from the launcher's location, and whether it loads. */
export type OrdinarySqlite =
  | { readonly ok: true; readonly binding: string; readonly from: string }
  | { readonly ok: false; readonly reason: string };

/** Everything the resolver may look at, injected. */
export interface ResolveInput {
  readonly host: HostFacts;
  /** Value of CAVEMAN_MCP_BINARY; empty or only whitespace counts as unset. */
  readonly override: string | undefined;
  readonly exists: (path: string) => boolean;
  /** Entry names of a directory, [] when it is missing. */
  readonly listDir: (path: string) => string[];
  /** A package's directory resolved from the launcher's own location, or null. */
  readonly packageDir: (name: string) => string | null;
  /** Names of platform packages installed beside the launcher (any OS). */
  readonly siblingPackages: () => string[];
  /** The launcher's portable server file, or null when this launcher was built without one. */
  readonly portableServer: string | null;
  /** Called only when the portable fallback is reached. */
  readonly ordinarySqlite: () => OrdinarySqlite;
  /** Whether the host can run this target under emulation; a string says why not. */
  readonly canEmulate: (target: Target) => true | string;
}

/** How the server will be started. */
export interface LaunchPlan {
  readonly via: "override" | "platform" | "emulated" | "portable-sqlite" | "portable-memory";
  readonly command: string;
  /** Arguments before the user's own. */
  readonly args: readonly string[];
  /** Variables added to the inherited environment. */
  readonly env: Readonly<Record<string, string>>;
  /** A line for stderr when the launch is degraded, else null. */
  readonly notice: string | null;
  /** Each step tried before this one, with why it was passed over. */
  readonly tried: readonly string[];
  /** Platform packages for another host found beside the launcher. */
  readonly foreign: readonly string[];
}

/** The outcome: a plan, or a typed error with everything needed to explain it. */
export type Resolution =
  | { readonly ok: true; readonly plan: LaunchPlan }
  | {
      readonly ok: false;
      readonly error: LauncherError;
      readonly tried: readonly string[];
      readonly foreign: readonly string[];
    };

const join = (dir: string, file: string): string => `${dir.replace(/[\\/]+$/, "")}/${file}`;
const isScript = (path: string): boolean => /\.[cm]?js$/i.test(path);

/** Resolve how to start the server. Pure: same input, same answer. */
export function resolveLaunch(input: ResolveInput): Resolution {
  const { host } = input;
  const tried: string[] = [];
  const foreign = foreignPackages(input);

  // Blank (empty or only whitespace) is unset, the rule the server applies to every variable.
  if (input.override !== undefined && input.override.trim() !== "") {
    const path = input.override;
    if (!input.exists(path)) {
      const error = new LauncherError(
        "launcher_override_missing",
        `${OVERRIDE_ENV} is set to "${path}", which does not exist. Fix the path or unset ${OVERRIDE_ENV}.`,
      );
      return { ok: false, error, tried: [`${OVERRIDE_ENV}=${path}: no such file`], foreign };
    }
    const plan = isScript(path)
      ? { command: host.execPath, args: [path] }
      : { command: path, args: [] as string[] };
    return { ok: true, plan: { via: "override", ...plan, env: {}, notice: null, tried, foreign } };
  }

  const candidates = targetsForHost(host.platform, host.arch, host.libc);
  if (candidates.length === 0) tried.push(`no platform build exists for ${host.platform}-${host.arch}`);
  for (const target of candidates) {
    const found = platformServer(input, target, tried);
    if (found !== null) {
      const env = bindingEnv(found.binding);
      const plan = { command: host.execPath, args: [found.server], env, notice: null, tried, foreign };
      return { ok: true, plan: { via: "platform", ...plan } };
    }
  }

  const emulatedId = EMULATION[`${host.platform}-${host.arch}`];
  const emulated = emulatedId === undefined ? undefined : targetById(emulatedId);
  if (emulated !== undefined) {
    const found = platformServer(input, emulated, tried);
    const verdict = found === null ? null : input.canEmulate(emulated);
    if (found !== null && verdict === true) {
      const notice = `caveman-mcp: running the ${emulated.id} build under emulation (Rosetta 2).`;
      const args = ["-x86_64", host.execPath, found.server];
      const env = bindingEnv(found.binding);
      return {
        ok: true,
        plan: { via: "emulated", command: "/usr/bin/arch", args, env, notice, tried, foreign },
      };
    }
    if (typeof verdict === "string") tried.push(`${packageName(emulated)} under emulation: ${verdict}`);
  }

  if (input.portableServer === null || !input.exists(input.portableServer)) {
    tried.push("portable server: not part of this launcher build");
    const error = new LauncherError(
      "launcher_no_server",
      "no server build fits this host and this launcher carries no portable server.",
    );
    return { ok: false, error, tried, foreign };
  }
  const missing = candidates.length > 0 ? `${candidates.map(packageName).join(" or ")} is not usable` : "";
  const server = input.portableServer;
  if (host.builtinSqlite) {
    // Node's own SQLite needs no binding: the portable server is as good as a platform build.
    const notice = `caveman-mcp: ${missing || "no platform build"}; using the portable server with Node's built-in SQLite.`;
    const plan = { command: host.execPath, args: [server], env: {}, notice, tried, foreign };
    return { ok: true, plan: { via: "portable-sqlite", ...plan } };
  }
  const sqlite = input.ordinarySqlite();
  if (sqlite.ok) {
    const notice = `caveman-mcp: ${missing || "no platform build"}; using the portable server with better-sqlite3 from ${sqlite.from}.`;
    const env = { [BINDING_ENV]: sqlite.binding };
    const plan = { command: host.execPath, args: [server], env, notice, tried, foreign };
    return { ok: true, plan: { via: "portable-sqlite", ...plan } };
  }
  tried.push(`ordinary better-sqlite3: ${sqlite.reason}`);
  // No --ephemeral here: the server finds no SQLite itself, says why, and doctor fails on it.
  const notice =
    `caveman-mcp: ${missing || "no platform build"}, no better-sqlite3 loads, and Node ${host.node} has no ` +
    "built-in SQLite (22.13+): originals are kept in memory only and will be lost at exit. " +
    `Fix: ${memoryFix(tried, candidates.length > 0)}`;
  const plan = { command: host.execPath, args: [server], env: {}, notice, tried, foreign };
  return { ok: true, plan: { via: "portable-memory", ...plan } };
}

/** The one fix for a launch without SQLite, from what was tried. */
function memoryFix(tried: readonly string[], hasTarget: boolean): string {
  const upgrade = "run on Node 22.13 or newer, which has SQLite built in and needs no binding";
  if (hasTarget && tried.some((t) => t.endsWith(": not installed"))) {
    return `reinstall caveman-mcp with its optional dependencies (not --omit=optional, and not excluded by pnpm's supportedArchitectures), or ${upgrade}.`;
  }
  return `${upgrade}.`;
}

/** The server's environment for a binding: none when Node's own SQLite makes it moot. */
function bindingEnv(binding: string | null): Record<string, string> {
  return binding === null ? {} : { [BINDING_ENV]: binding };
}

/** The server and binding of an installed target, or null with the reason added to `tried`. */
function platformServer(
  input: ResolveInput,
  target: Target,
  tried: string[],
): { server: string; binding: string | null } | null {
  const name = packageName(target);
  const dir = input.packageDir(name);
  if (dir === null) {
    tried.push(`${name}: not installed`);
    return null;
  }
  const server = join(dir, SERVER_FILE);
  if (!input.exists(server)) {
    tried.push(`${name}: installed at ${dir} but ${SERVER_FILE} is missing (an unbuilt package?)`);
    return null;
  }
  // On Node 22.13+ the server uses node:sqlite: any binding the package carries is not needed.
  if (input.host.builtinSqlite) return { server, binding: null };
  const binding = join(dir, bindingFile(input.host.abi));
  if (!input.exists(binding)) {
    const abis = abisIn(input.listDir(join(dir, "dist")));
    const has = abis.length > 0 ? abis.map((a) => `v${a}`).join(", ") : "none";
    tried.push(
      `${name}: has no SQLite binding for Node ABI v${input.host.abi} (${input.host.node}); it has ${has}`,
    );
    return null;
  }
  return { server, binding };
}

/** Platform packages beside the launcher that belong to another host. */
function foreignPackages(input: ResolveInput): string[] {
  const mine = new Set(
    [...targetsForHost(input.host.platform, input.host.arch, input.host.libc)].map(packageName),
  );
  const emulatedId = EMULATION[`${input.host.platform}-${input.host.arch}`];
  if (emulatedId !== undefined) mine.add(`${PLATFORM_SCOPE}/${emulatedId}`);
  return input
    .siblingPackages()
    .filter((name) => !mine.has(name))
    .sort();
}
