// Runs the real Claude Code CLI (a native binary that `pnpm install` put in this package's
// node_modules) non-interactively against a fake model, with the built caveman-mcp binary as its
// only MCP server. Two builds are installed: the pinned one and the newest on the registry when it
// was last bumped (an npm alias of the same package); vitest.config.ts runs every host test once
// per selected build, as a project named after its version. Contract: nothing leaves loopback (a
// throwaway HOME, telemetry and updates off, every proxy pointed at a closed loopback port, the
// API at the fake model); the run is bounded by a timeout and its stdout events, stderr and exit
// code are returned.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The server binary under test, as the app's build leaves it. */
export const SERVER_CLI = resolve(HERE, "..", "..", "..", "apps", "caveman-mcp", "dist", "cli.js");
const CLAUDE_PACKAGE = "@anthropic-ai/claude-code-linux-x64";

/** The installed builds, by name: the package (or npm alias) each comes from. */
const BUILDS = { pinned: CLAUDE_PACKAGE, newest: "claude-code-newest" } as const;
export type ClaudeBuild = keyof typeof BUILDS;
/** Which builds a run covers: "pinned", "newest" or "pinned,newest". */
const CLAUDE_VERSIONS_ENV = "CAVEMAN_CLAUDE_VERSIONS";
/** Set by vitest.config.ts in each project: the build that project's tests run. */
export const CLAUDE_BUILD_ENV = "CAVEMAN_CLAUDE_BUILD";

/** The version package.json installs for a build (the alias names its version after the `@`). */
export function claudeVersion(build: ClaudeBuild): string {
  const pkg = JSON.parse(readFileSync(join(HERE, "..", "package.json"), "utf8")) as {
    optionalDependencies: Record<string, string>;
  };
  const spec = pkg.optionalDependencies[BUILDS[build]] ?? "";
  return spec.slice(spec.lastIndexOf("@") + 1);
}

/**
 * The builds this run covers: CAVEMAN_CLAUDE_VERSIONS when set; else both under the full suite
 * (`pnpm test:full`, CI), else the pinned one (the contributor's loop).
 */
export function selectedBuilds(full: boolean, env: NodeJS.ProcessEnv = process.env): ClaudeBuild[] {
  const asked = (env[CLAUDE_VERSIONS_ENV] ?? "").trim();
  if (asked === "") return full ? ["pinned", "newest"] : ["pinned"];
  const names = asked.split(",").map((n) => n.trim());
  for (const n of names)
    if (!(n in BUILDS)) throw new Error(`${CLAUDE_VERSIONS_ENV}: "${n}" is not one of pinned, newest`);
  return [...new Set(names)] as ClaudeBuild[];
}

/** The build the calling test runs (its project's), the pinned one outside a project. */
export function currentBuild(): ClaudeBuild {
  const b = process.env[CLAUDE_BUILD_ENV];
  return b === "newest" ? "newest" : "pinned";
}

/** Absolute path of the current build's `claude` binary, or why it is not there. */
export function findClaude(): { path: string } | { missing: string } {
  const name = BUILDS[currentBuild()];
  try {
    const pkg = createRequire(import.meta.url).resolve(`${name}/package.json`);
    const bin = join(dirname(pkg), "claude");
    if (existsSync(bin)) return { path: bin };
    return { missing: `${bin} does not exist` };
  } catch {
    return {
      missing: `${name} is not installed (it is an optional dependency for linux-x64 glibc only; this machine is ${process.platform}-${process.arch})`,
    };
  }
}

/**
 * Why the host tier cannot run here, or undefined when it can (or must: with `CI` set a missing
 * binary is a failure of the run, never a skip).
 */
export function skipReason(): string | undefined {
  const found = findClaude();
  const inCi = ["true", "1"].includes((process.env.CI ?? "").toLowerCase());
  return "missing" in found && !inCi ? found.missing : undefined;
}

/** A loopback port with nothing listening on it, so a proxied connection fails at once. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface Workspace {
  base: string;
  /** The edit root the server is confined to, and the CLI's working directory. */
  root: string;
  chipDir: string;
  db: string;
}

export function workspace(): Workspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "caveman-host-")));
  const root = join(base, "root");
  mkdirSync(root);
  return { base, root, chipDir: join(base, "chips"), db: join(base, "ccr", "ccr.db") };
}

export interface ClaudeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Parsed stream-json events from stdout. */
  events: Array<Record<string, unknown>>;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  claude: string;
  apiUrl: string;
  ws: Workspace;
  prompt: string;
  timeoutMs?: number;
  /** More MCP servers beside `caveman`, by name (stdio command lines). */
  servers?: Record<string, { command: string; args: string[] }>;
  /** More CLI arguments (`--settings`, `--debug-file`, `--tools`...). */
  args?: string[];
  /** More environment for the CLI, which its hooks and MCP servers inherit. */
  env?: Record<string, string>;
  /**
   * false: no `--mcp-config`/`--strict-mcp-config`, so the servers come from the HOME's own
   * settings and plugins (the plugin tier installs caveman-mcp there the user's way).
   */
  mcpConfig?: false;
}

/** The CLI's environment: throwaway HOME, telemetry and updates off, every proxy at a closed port. */
export async function hostEnv(home: string, apiUrl: string, extra: Record<string, string> = {}) {
  const proxy = `http://127.0.0.1:${await closedPort()}`;
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: "sk-ant-host-test-dummy",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    https_proxy: proxy,
    http_proxy: proxy,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    IS_SANDBOX: "1",
    MCP_CONNECTION_NONBLOCKING: "0",
    MCP_TIMEOUT: "30000",
    ...extra,
  } as Record<string, string>;
}

export async function runClaude(options: RunOptions): Promise<ClaudeRun> {
  const { ws } = options;
  if (!existsSync(SERVER_CLI)) throw new Error(`${SERVER_CLI} is missing; run \`pnpm build\` first`);
  const home = join(ws.base, "home");
  mkdirSync(home, { recursive: true });
  const mcpConfig = join(ws.base, "mcp.json");
  writeFileSync(
    mcpConfig,
    JSON.stringify({
      mcpServers: {
        caveman: {
          type: "stdio",
          command: process.execPath,
          // The test sets the engine's deadline: on a loaded machine the production 4 s would turn a
          // compress into a pass-through, which is not what the tier checks.
          args: [
            SERVER_CLI,
            "--root",
            ws.root,
            "--db",
            ws.db,
            "--chip-dir",
            ws.chipDir,
            "--engine-timeout-ms",
            "120000",
          ],
          env: {},
        },
        ...Object.fromEntries(
          Object.entries(options.servers ?? {}).map(([name, s]) => [name, { type: "stdio", ...s, env: {} }]),
        ),
      },
    }),
  );
  const env = await hostEnv(home, options.apiUrl, options.env);
  const args = [
    "-p",
    options.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-mode",
    "bypassPermissions",
    ...(options.mcpConfig === false ? [] : ["--mcp-config", mcpConfig, "--strict-mcp-config"]),
    ...(options.args ?? []),
  ];
  const started = Date.now();
  const child = spawn(options.claude, args, { cwd: ws.root, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 150_000);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("close", (c, s) => r({ code: c, signal: s })),
  );
  clearTimeout(timer);
  const events: Array<Record<string, unknown>> = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // stream-json is one event per line; anything else is kept in `stdout` for the report.
    }
  }
  return { code, signal, events, stdout, stderr, ms: Date.now() - started };
}
