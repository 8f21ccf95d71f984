// Packaging end to end: pack the launcher and this host's platform package, install the
// tarballs into empty directories with npm (offline: nothing of ours comes from a registry),
// then start the server the way users do, `npx caveman-mcp`, and drive a real MCP session
// through it with the SDK client. Then again without the platform package, proving the
// portable fallback and its notice. Needs `pnpm --filter caveman-mcp build` (turbo runs it).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir as newScratchDir } from "@caveman/test-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPackageDir, gatherHost, hasBuiltinSqlite } from "../src/host.js";
import { PORTABLE_SERVER_FILE, SERVER_FILE } from "../src/layout.js";
import { packageName, targetsForHost } from "../src/targets.js";

const launcherDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const host = gatherHost();
const target = targetsForHost(host.platform, host.arch, host.libc)[0];
if (target === undefined)
  throw new Error(`no target for this host: ${host.platform} ${host.arch} ${host.libc}`);
const platformDir = resolve(launcherDir, "..", "platforms", target.id);
const appVersion = JSON.parse(
  readFileSync(resolve(launcherDir, "../../apps/caveman-mcp/package.json"), "utf8"),
).version as string;
const NPX = process.platform === "win32" ? "npx.cmd" : "npx";
/** On Node 22.13+ the server stores originals through node:sqlite; before that, better-sqlite3. */
const BUILTIN = hasBuiltinSqlite(process.version);
const DRIVER = BUILTIN ? "node:sqlite" : "better-sqlite3";

/** The environment of a user's shell: no pnpm/npm variables leaking in from the test runner. */
function userEnv(cache: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(npm_|pnpm_|PNPM_|CAVEMAN_)/i.test(k)) env[k] = v;
  }
  // The runner's PATH holds workspace bins (the app's own `caveman-mcp` among them); a user's
  // shell does not, and npx must find the installed launcher, not those.
  const PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((p) => !p.split(/[\\/]/).includes("node_modules"))
    .join(delimiter);
  return {
    ...env,
    PATH,
    npm_config_cache: cache,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    // A compress must finish on a loaded machine: the production 4 s engine deadline would turn it
    // into a pass-through, which is not what these tests check.
    CAVEMAN_ENGINE_TIMEOUT_MS: "120000",
    ...extra,
  };
}

function run(cmd: string, args: string[], cwd: string, env?: Record<string, string>) {
  // npx/npm are .cmd shims on Windows, which Node only spawns through a shell.
  const shell = process.platform === "win32";
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 120_000, shell });
  if (r.error) throw r.error;
  return r;
}

function pack(dir: string, dest: string): string {
  const before = new Set(readdirSync(dest));
  const r = run("pnpm", ["pack", "--pack-destination", dest], dir);
  expect(r.status, r.stderr).toBe(0);
  const made = readdirSync(dest).filter((f) => f.endsWith(".tgz") && !before.has(f));
  expect(made).toHaveLength(1);
  return join(dest, made[0] as string);
}

/** Every temp directory this file makes, removed after the run (installs are ~10 MB each). */
const scratch: Array<() => void> = [];
function scratchDir(prefix: string): string {
  const made = newScratchDir(prefix);
  scratch.push(made.cleanup);
  return made.dir;
}

function installInto(name: string, tarballs: string[], cache: string): string {
  const dir = scratchDir(`cm-e2e-${name}-`);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `e2e-${name}`, private: true })}\n`);
  const r = run("npm", ["install", "--no-audit", "--no-fund", ...tarballs], dir, userEnv(cache));
  expect(r.status, `npm install failed:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return dir;
}

interface Session {
  tools: string[];
  compressed: { handle: string; ratio: number };
  retrieved: string;
  stderr: string;
}

const BIG_JSON = JSON.stringify(
  Array.from({ length: 300 }, (_, i) => ({
    id: i,
    name: `user-${i}`,
    email: `u${i}@example.com`,
    active: i % 3 === 0,
  })),
  null,
  2,
);

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}

/** One MCP session through `npx caveman-mcp`: list, compress, retrieve, and optionally edit. */
async function session(
  cwd: string,
  env: Record<string, string>,
  args: string[],
  edit: boolean,
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: NPX,
    args: ["caveman-mcp", ...args],
    cwd,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const client = new Client({ name: "caveman-e2e", version: "1.0.0" });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const c = await client.callTool({ name: "caveman_compress", arguments: { input: BIG_JSON } });
    expect(c.isError ?? false, textOf(c)).toBe(false);
    // compress is a text tool: the stand-in, whose header names the figures and the handle.
    const header =
      /^\[caveman: \w+ compressed, (\d+) -> (\d+) tokens; original: caveman_retrieve recovery_handle "(ccr_[0-9a-f]{32})"/.exec(
        (c.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("\n"),
      );
    expect(header, textOf(c)).not.toBeNull();
    const s = { recovery_handle: header?.[3] ?? null, ratio: 1 - Number(header?.[2]) / Number(header?.[1]) };
    const r = await client.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: s.recovery_handle },
    });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    if (edit) {
      const file = join(cwd, "notes.txt");
      const w = await client.callTool({
        name: "be-write",
        arguments: { path: file, content: "one\ntwo\nthree\n" },
      });
      expect(w.isError ?? false, textOf(w)).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("one\ntwo\nthree\n");
      const d = await client.callTool({
        name: "be-delete",
        arguments: { path: file, start_line: 2, end_line: 2 },
      });
      expect(d.isError ?? false, textOf(d)).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("one\nthree\n");
      const chip = /chip:\/\/[\w-]+/.exec(textOf(d))?.[0];
      expect(chip, textOf(d)).toBeDefined();
      const back = await client.callTool({ name: "be-insert-chip", arguments: { from: chip } });
      expect(back.isError ?? false, textOf(back)).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("one\ntwo\nthree\n");
    }
    return {
      tools,
      compressed: { handle: s.recovery_handle as string, ratio: s.ratio },
      retrieved: textOf(r),
      stderr,
    };
  } finally {
    await client.close();
  }
}

describe("packaging: tarballs installed with npm, started with npx", () => {
  let tarballs: { launcher: string; platform: string };
  let cache: string;

  afterAll(() => {
    for (const cleanup of scratch) cleanup();
  });

  beforeAll(() => {
    for (const file of [join(launcherDir, "dist", "cli.js"), join(launcherDir, PORTABLE_SERVER_FILE)]) {
      if (!existsSync(file))
        throw new Error(`${file} is missing: run \`pnpm --filter caveman-mcp build\` first`);
    }
    if (!existsSync(join(platformDir, SERVER_FILE))) throw new Error(`${platformDir} is not built`);
    const dest = scratchDir("cm-pack-");
    cache = join(dest, "npm-cache");
    mkdirSync(cache);
    tarballs = { launcher: pack(launcherDir, dest), platform: pack(platformDir, dest) };
  });

  it("packs a launcher with exact optional dependencies and a platform package with server and binding", () => {
    const out = scratchDir("cm-unpack-");
    for (const [name, tgz] of Object.entries(tarballs)) {
      mkdirSync(join(out, name));
      expect(run("tar", ["-xzf", tgz, "-C", join(out, name)], out).status).toBe(0);
    }
    const manifest = JSON.parse(readFileSync(join(out, "launcher", "package", "package.json"), "utf8"));
    expect(manifest.optionalDependencies[packageName(target)]).toBe(manifest.version);
    expect(JSON.stringify(manifest)).not.toContain("workspace:");
    expect(existsSync(join(out, "launcher", "package", "dist", "cli.js"))).toBe(true);
    expect(existsSync(join(out, "launcher", "package", PORTABLE_SERVER_FILE))).toBe(true);
    expect(existsSync(join(out, "platform", "package", SERVER_FILE))).toBe(true);
    // The server starts its engine workers from this file beside itself (a compress over 2 KiB
    // needs it), and both load the engine from engine.js beside them on first use.
    for (const server of [
      join("launcher", "package", PORTABLE_SERVER_FILE),
      join("platform", "package", SERVER_FILE),
    ])
      for (const file of ["engine-worker.js", "engine.js"])
        expect(existsSync(join(out, dirname(server), file)), `${server}: ${file}`).toBe(true);
    // The binding of the Node the package was built with (Node 20 here): Node 22.13+ needs none.
    const built = JSON.parse(readFileSync(join(launcherDir, "dist", "portable", "build.json"), "utf8")) as {
      abi: string;
    };
    const abi = join(out, "platform", "package", "dist", `node-v${built.abi}`, "better_sqlite3.node");
    expect(existsSync(abi)).toBe(true);
  });

  it("with the platform package: --version, then a full MCP session on SQLite", async () => {
    const dir = installInto("full", [tarballs.launcher, tarballs.platform], cache);
    const env = userEnv(cache, { HOME: dir, XDG_CACHE_HOME: join(dir, ".cache") });
    const v = run(NPX, ["caveman-mcp", "--version"], dir, env);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain(appVersion);
    expect(v.stderr).toBe("");
    // npx reached the launcher (not some other caveman-mcp): it honours the launcher's override.
    const probe = run(NPX, ["caveman-mcp", "--version"], dir, {
      ...env,
      CAVEMAN_MCP_BINARY: join(dir, "nope"),
    });
    expect(probe.status).toBe(1);
    expect(probe.stderr).toContain("launcher_override_missing");
    expect(probe.stdout).toBe("");

    const db = join(dir, "ccr.db");
    const s = await session(dir, env, ["--db", db, "--chip-dir", join(dir, "chips"), "--root", dir], true);
    expect(s.tools).toEqual(
      expect.arrayContaining(["caveman_compress", "caveman_retrieve", "be-write", "be-delete"]),
    );
    expect(s.retrieved).toBe(BIG_JSON);
    expect(s.compressed.ratio).toBeGreaterThan(0);
    expect(existsSync(db)).toBe(true);
    expect(s.stderr).toContain(`store sqlite (${DRIVER}) ${db}`);
    expect(s.stderr).not.toMatch(/in memory|cannot open|ExperimentalWarning/i);
    // The original outlives the server: a second process, started the same way, gets it byte-exact.
    const second = run(NPX, ["caveman-mcp", "--db", db, "retrieve", s.compressed.handle], dir, env);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe(BIG_JSON);
    expect(second.stderr).toBe("");
    const doctor = run(NPX, ["caveman-mcp", "--db", db, "--root", dir, "doctor"], dir, env);
    expect(doctor.status, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain(`ok   ccr store: sqlite (${DRIVER}) ${db}`);
  });

  it("without the platform package: the portable server, on node:sqlite where Node has it, else on memory with a notice and a failing doctor", async () => {
    const dir = installInto("fallback", [tarballs.launcher], cache);
    expect(existsSync(join(dir, "node_modules", packageName(target)))).toBe(false);
    const env = userEnv(cache, { HOME: dir, XDG_CACHE_HOME: join(dir, ".cache") });
    const v = run(NPX, ["caveman-mcp", "--version"], dir, env);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain(appVersion);
    expect(v.stderr, `stdout: ${v.stdout}`).toContain(`${packageName(target)} is not usable`);
    const s = await session(dir, env, ["--chip-dir", join(dir, "chips"), "--root", dir], false);
    expect(s.retrieved).toBe(BIG_JSON);
    const doctor = run(NPX, ["caveman-mcp", "--root", dir, "doctor"], dir, env);
    if (BUILTIN) {
      expect(v.stderr).toContain("using the portable server with Node's built-in SQLite");
      expect(s.stderr).toContain(`store sqlite (node:sqlite) ${join(dir, ".caveman", "ccr.db")}`);
      const second = run(NPX, ["caveman-mcp", "retrieve", s.compressed.handle], dir, env);
      expect(second.stdout).toBe(BIG_JSON);
      expect(doctor.status, doctor.stdout).toBe(0);
    } else {
      expect(v.stderr).toContain("originals are kept in memory only and will be lost at exit");
      expect(v.stderr).toContain("Fix: reinstall caveman-mcp with its optional dependencies");
      expect(s.stderr).toContain("store memory: originals are kept in memory only and will be lost at exit");
      expect(existsSync(join(dir, ".caveman", "ccr.db"))).toBe(false);
      expect(doctor.status).toBe(1);
      expect(doctor.stdout).toMatch(/FAIL ccr store: .*will be lost at exit/);
    }
  });

  it("without the platform package but with an ordinary better-sqlite3: the portable server on SQLite", async () => {
    const dir = installInto("ordinary", [tarballs.launcher], cache);
    // A user's own better-sqlite3 beside caveman-mcp (linked from the workspace's built copy:
    // installing it for real would compile it, which is not what this test is about).
    const real = findPackageDir(resolve(launcherDir, "../../apps/caveman-mcp"), "better-sqlite3");
    expect(real).not.toBeNull();
    symlinkSync(real as string, join(dir, "node_modules", "better-sqlite3"), "junction");
    const env = userEnv(cache, { HOME: dir, XDG_CACHE_HOME: join(dir, ".cache") });
    const db = join(dir, "ccr.db");
    const s = await session(dir, env, ["--db", db, "--chip-dir", join(dir, "chips"), "--root", dir], false);
    expect(s.retrieved).toBe(BIG_JSON);
    // On Node 22.13+ the launcher never looks for better-sqlite3: Node's own SQLite serves.
    expect(s.stderr).toContain(
      BUILTIN
        ? "using the portable server with Node's built-in SQLite"
        : `using the portable server with better-sqlite3 from ${real}`,
    );
    expect(s.stderr).not.toMatch(/in memory|cannot open/i);
    expect(existsSync(db)).toBe(true);
  });
});
