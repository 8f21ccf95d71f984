// Gathers the real facts the pure resolver needs: host platform, libc evidence, installed
// packages seen from the launcher's own location, and the two probes (an ordinary
// better-sqlite3 that loads; x64 emulation on Apple Silicon). Probes run in a child Node so
// that a binding which crashes on load cannot take the launcher down; they run only on the
// fallback paths, never on the normal one.
import { spawnSync } from "node:child_process";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { OVERRIDE_ENV, PORTABLE_SERVER_FILE } from "./layout.js";
import { detectLibc, type LibcEvidence } from "./libc.js";
import type { HostFacts, OrdinarySqlite, ResolveInput } from "./resolve.js";
import { PLATFORM_SCOPE, type Target } from "./targets.js";

interface ReportShape {
  header?: { glibcVersionRuntime?: string };
  sharedObjects?: string[];
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return undefined;
  }
}

function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/**
 * The process report without its network section, which is slow in some sandboxes and
 * unneeded here; the setting (absent from Node 20's typings) is restored afterwards.
 */
function readReport(): ReportShape {
  const report = process.report as (NodeJS.ProcessReport & { excludeNetwork?: boolean }) | undefined;
  if (report === undefined) return {};
  const before = report.excludeNetwork;
  try {
    report.excludeNetwork = true;
    return report.getReport() as ReportShape;
  } catch {
    return {};
  } finally {
    report.excludeNetwork = before;
  }
}

/** Where the libc evidence files live; injectable so tests can lay out a fake host. */
export interface LibcPaths {
  /** `/usr/bin/ldd` on a real host. */
  readonly ldd: string;
  /** `/lib` on a real host. */
  readonly lib: string;
}

/**
 * musl's ldd is its loader, ~700 KB, whose "musl" string sits near the end: reading only
 * the start never sees it. Read whole regular files up to this size, and never a FIFO or a
 * device (a read there could block the launcher for ever).
 */
const LDD_MAX_BYTES = 4 * 1024 * 1024;

function readLdd(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stat.size, LDD_MAX_BYTES));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString("latin1");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Evidence of the running host's C library (Linux only; elsewhere empty). */
export function gatherLibcEvidence(
  paths: LibcPaths = { ldd: "/usr/bin/ldd", lib: "/lib" },
  platform: string = process.platform,
): LibcEvidence {
  if (platform !== "linux") return {};
  const report = readReport();
  return {
    glibcVersionRuntime: report.header?.glibcVersionRuntime,
    sharedObjects: report.sharedObjects,
    lddText: readLdd(paths.ldd),
    libEntries: listDir(paths.lib),
  };
}

/**
 * Whether a Node release has node:sqlite without a flag (22.13+, 23.4+, every line after). By
 * version, not by loading it: loading would print Node 22's ExperimentalWarning in the launcher.
 */
export function hasBuiltinSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  return major >= 24 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
}

/** Facts about this process's host. */
export function gatherHost(): HostFacts {
  const verdict = process.platform === "linux" ? detectLibc(gatherLibcEvidence()) : null;
  return {
    platform: process.platform,
    arch: process.arch,
    libc: verdict?.libc ?? null,
    libcSource: verdict?.source ?? "not Linux",
    node: process.version,
    abi: process.versions.modules,
    builtinSqlite: hasBuiltinSqlite(process.version),
    execPath: process.execPath,
  };
}

/** Loads an ordinary better-sqlite3 in a child Node and opens an in-memory database. */
const SQLITE_PROBE =
  "const D=require(process.argv[1]);new D(':memory:').prepare('select 1').get();process.exit(0)";

/**
 * Build the resolver's input for a launcher whose entry file is `launcherFile` (in dist/).
 * @param env the environment to read the override from (process.env in production).
 */
export function gatherInput(launcherFile: string, env: NodeJS.ProcessEnv): ResolveInput {
  const host = gatherHost();
  const launcherDir = dirname(dirname(launcherFile));
  const portableServer = join(launcherDir, PORTABLE_SERVER_FILE);
  const portableDir = dirname(portableServer);

  const packageDir = (name: string): string | null => findPackageDir(launcherDir, name);

  const siblingPackages = (): string[] => {
    // npm hoists platform packages next to the launcher; pnpm links them beside it in
    // its virtual store; a nested install puts them under the launcher's node_modules.
    const dirs = [
      join(dirname(launcherDir), PLATFORM_SCOPE),
      join(launcherDir, "node_modules", PLATFORM_SCOPE),
    ];
    const names = dirs.flatMap((d) => listDir(d).map((n) => `${PLATFORM_SCOPE}/${n}`));
    return [...new Set(names)];
  };

  const ordinarySqlite = (): OrdinarySqlite => {
    const dir = packageDir("better-sqlite3");
    if (dir === null) return { ok: false, reason: "not installed where the launcher can see it" };
    const wanted = readBuildInfo(portableDir)?.betterSqlite3;
    const found = readVersion(dir);
    if (wanted !== undefined && found?.split(".")[0] !== wanted.split(".")[0]) {
      return { ok: false, reason: `${dir} is version ${found ?? "unknown"}, the server needs ${wanted}` };
    }
    const binding = join(dir, "build", "Release", "better_sqlite3.node");
    if (!existsSync(binding)) return { ok: false, reason: `${dir} has no built binding` };
    const probe = spawnSync(host.execPath, ["-e", SQLITE_PROBE, dir], { stdio: "ignore", timeout: 15_000 });
    if (probe.status !== 0) return { ok: false, reason: `${dir} does not load in ${host.node}` };
    return { ok: true, binding, from: dir };
  };

  const canEmulate = (target: Target): true | string => {
    if (!(host.platform === "darwin" && host.arch === "arm64" && target.cpu === "x64")) {
      return "no emulation for this host";
    }
    const code = "process.exit(process.arch==='x64'?0:1)";
    const probe = spawnSync("/usr/bin/arch", ["-x86_64", host.execPath, "-e", code], {
      stdio: "ignore",
      timeout: 15_000,
    });
    return probe.status === 0 ? true : `${host.execPath} cannot run as x64 (not a universal binary)`;
  };

  return {
    host,
    override: env[OVERRIDE_ENV],
    exists: existsSync,
    listDir,
    packageDir,
    siblingPackages,
    portableServer: existsSync(portableServer) ? portableServer : null,
    ordinarySqlite,
    canEmulate,
  };
}

/**
 * The directory of package `name` as Node's node_modules walk would find it from `fromDir`,
 * and only from there: NODE_PATH and global folders are ignored (a test runner's NODE_PATH
 * once made a workspace build look installed), and `exports` maps do not get in the way.
 */
export function findPackageDir(fromDir: string, name: string): string | null {
  let dir = fromDir;
  for (;;) {
    if (basename(dir) !== "node_modules") {
      const candidate = join(dir, "node_modules", name);
      if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readVersion(dir: string): string | undefined {
  const text = readText(join(dir, "package.json"));
  if (text === undefined) return undefined;
  try {
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

/** What the build recorded about the bundled server (see scripts/build-server.mjs). */
interface BuildInfo {
  readonly betterSqlite3?: string;
  readonly server?: string;
}

function readBuildInfo(portableDir: string): BuildInfo | undefined {
  const text = readText(join(portableDir, "build.json"));
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as BuildInfo;
  } catch {
    return undefined;
  }
}
