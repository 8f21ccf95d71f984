// Real clients of both protocol eras against the built binary: the SDK v1 client (legacy only),
// the SDK v2 client pinned to the modern revision, in legacy mode and in auto mode, and the MCP
// Inspector CLI in --protocol-era modern, legacy and auto. Each lists the tools and calls every
// one of them, and the test checks which era the connection really used.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { FULL_SUITE } from "@caveman/vitest-config";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { type CallTool, callEveryTool } from "./everyTool.js";
import { CLI, connect, type Sandbox, sandbox } from "./helpers.js";

const MODERN = "2026-07-28";
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

interface Reply {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}
const joinText = (r: Reply) => r.content.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("\n");

async function expectEveryToolCalled(listed: string[], call: CallTool, box: Sandbox): Promise<void> {
  expect(listed.length).toBe(13);
  const called = await callEveryTool(call, box.root);
  expect([...new Set(called)].sort()).toEqual([...listed].sort());
}

/** What the v1 and v2 SDK clients have in common for this test. */
interface SdkClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

async function listAndCallEveryTool(client: SdkClient, box: Sandbox): Promise<void> {
  const { tools } = await client.listTools();
  await expectEveryToolCalled(
    tools.map((t) => t.name),
    async (name, args) => {
      const r = (await client.callTool({ name, arguments: args })) as Reply;
      return { text: joinText(r), isError: r.isError === true };
    },
    box,
  );
}

describe("SDK clients of both eras (real process)", () => {
  it("the v1 client (legacy handshake) lists and calls every tool", async () => {
    const box = sandbox();
    const { client } = await connect(box);
    open.push(client);
    await listAndCallEveryTool(client, box);
  });

  for (const [label, mode, era] of [
    ["pinned to 2026-07-28", { pin: MODERN }, MODERN],
    ["in legacy mode", "legacy", "2025-11-25"],
    ["in auto mode", "auto", MODERN],
  ] as const) {
    it(`the v2 client ${label} lists and calls every tool over the ${era} era`, async () => {
      const box = sandbox();
      const client = new ClientV2(
        { name: "caveman-test-v2", version: "1.0.0" },
        { versionNegotiation: { mode } },
      );
      const transport = new StdioV2({
        command: process.execPath,
        args: [CLI],
        env: box.env,
        cwd: box.root,
        stderr: "pipe",
      });
      await client.connect(transport);
      open.push(client);
      expect(client.getNegotiatedProtocolVersion()).toBe(era);
      expect(client.getServerVersion()?.name).toBe("caveman-mcp");
      await listAndCallEveryTool(client, box);
    });
  }
});

const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")),
  "clients",
  "launcher",
  "build",
  "index.js",
);

/** One Inspector CLI run against the binary; resolves with its stdout and exit code. */
function inspect(
  box: Sandbox,
  era: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const serverEnv = Object.entries(box.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const child = spawn(
    process.execPath,
    [INSPECTOR, "--cli", "--protocol-era", era, ...serverEnv, ...args, "--", process.execPath, CLI],
    { env: box.env, cwd: box.root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/**
 * The Inspector reads each `--tool-arg` value as JSON when it parses as JSON, so a string that
 * happens to be JSON text is passed JSON-quoted to stay a string.
 */
function cliValue(v: unknown): string {
  if (typeof v !== "string") return JSON.stringify(v);
  try {
    JSON.parse(v);
    return JSON.stringify(v);
  } catch {
    return v;
  }
}

/** The Inspector prints the result as JSON; an isError result is followed by one error line. */
function resultOf(stdout: string): Reply {
  const cut = stdout.indexOf('\n{"error"');
  return JSON.parse(cut === -1 ? stdout : stdout.slice(0, cut)) as Reply;
}

// Each Inspector call is a process pair (Inspector and server), seconds apiece on a busy machine:
// `pnpm test` runs one call per era, `pnpm test:full` every tool in every era.
describe("MCP Inspector CLI in every protocol era (real process)", () => {
  for (const era of ["modern", "legacy", "auto"] as const) {
    // Not a skip: each run registers only its own variant, so no test shows as skipped.
    const oneCall = FULL_SUITE ? undefined : it;
    const everyCall = FULL_SUITE ? it : undefined;
    oneCall?.(`--protocol-era ${era} lists every tool and calls one`, async () => {
      const box = sandbox();
      const listed = await inspect(box, era, ["--method", "tools/list"]);
      expect(listed.code, listed.stderr).toBe(0);
      const tools = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools;
      expect(tools.length).toBe(13);
      const run = await inspect(box, era, [
        "--method",
        "tools/call",
        "--tool-name",
        "caveman_toon_decode",
        "--tool-arg",
        "input=a: 1",
      ]);
      expect(run.code, run.stderr).toBe(0);
      const r = resultOf(run.stdout);
      expect(r.isError ?? false, joinText(r)).toBe(false);
      expect(joinText(r)).toMatch(/"a":\s*1/);
      // The modern era stamps every result with the server's identity; the legacy one does not.
      expect(r._meta?.["io.modelcontextprotocol/serverInfo"] !== undefined).toBe(era !== "legacy");
    });

    everyCall?.(
      `--protocol-era ${era} lists and calls every tool`,
      async () => {
        const box = sandbox();
        const listed = await inspect(box, era, ["--method", "tools/list"]);
        expect(listed.code, listed.stderr).toBe(0);
        const tools = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools;
        let stamped = 0;
        await expectEveryToolCalled(
          tools.map((t) => t.name),
          async (name, args) => {
            const toolArgs = Object.entries(args).flatMap(([k, v]) => ["--tool-arg", `${k}=${cliValue(v)}`]);
            const run = await inspect(box, era, ["--method", "tools/call", "--tool-name", name, ...toolArgs]);
            const r = resultOf(run.stdout);
            // The modern era stamps every result with the server's identity; the legacy one does not.
            if (r._meta?.["io.modelcontextprotocol/serverInfo"] !== undefined) stamped++;
            return { text: joinText(r), isError: r.isError === true };
          },
          box,
        );
        expect(stamped).toBe(era === "legacy" ? 0 : 13);
      },
      240_000,
    );
  }
});
