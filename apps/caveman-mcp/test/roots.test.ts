// Edit roots from the MCP client, and the refusal of a dangerous implicit root, through the real
// binary. A legacy client that offers roots gets them used when the user named none; an explicit
// root always wins; a server started in the home directory (or `/`) with no root keeps serving
// retrieve and compress while its edit tools answer with an error naming --root,
// and doctor fails, both naming the flag to set.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox, spawnRaw } from "./helpers.js";

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** A v1 client that offers `roots()` as its MCP roots. */
async function clientWithRoots(box: Sandbox, env: Record<string, string>, roots: () => string[]) {
  const client = new Client(
    { name: "roots-test", version: "1.0.0" },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: roots().map((dir) => ({ uri: pathToFileURL(dir).href, name: "project" })),
  }));
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI], env, cwd: box.root, stderr: "pipe" }),
  );
  open.push(client);
  return client;
}

/** be-read of `path` until it succeeds (the roots answer races the first call) or 10 s pass. */
async function readWhenReady(client: Client, path: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = (await client.callTool({ name: "be-read", arguments: { path } })) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
    };
    const text = r.content.map((b) => b.text ?? "").join("\n");
    if (!r.isError || Date.now() > deadline) return text;
    await new Promise((res) => setTimeout(res, 100));
  }
}

function withoutRoots(box: Sandbox): Record<string, string> {
  const { CAVEMAN_ROOTS: _, ...env } = box.env;
  return env;
}

describe("MCP roots from the client (real process)", () => {
  it("uses the client's roots when no root was given, and follows roots/list_changed", async () => {
    const box = sandbox();
    const first = join(box.base, "first");
    const second = join(box.base, "second");
    for (const dir of [first, second]) mkdirSync(dir);
    writeFileSync(join(first, "a.txt"), "from the first root\n");
    writeFileSync(join(second, "b.txt"), "from the second root\n");
    let offered = [first];
    const client = await clientWithRoots(box, withoutRoots(box), () => offered);
    expect(await readWhenReady(client, "a.txt")).toContain("from the first root");
    offered = [second];
    await client.sendRootsListChanged();
    expect(await readWhenReady(client, "b.txt")).toContain("from the second root");
    const outside = (await client.callTool({
      name: "be-read",
      arguments: { path: join(first, "a.txt") },
    })) as {
      content: Array<{ text?: string }>;
    };
    expect(outside.content[0]?.text).toMatch(/^be_outside_roots/);
  });

  it("keeps an explicit root over the client's roots", async () => {
    const box = sandbox();
    const other = join(box.base, "other");
    mkdirSync(other);
    writeFileSync(join(other, "x.txt"), "client root\n");
    writeFileSync(join(box.root, "x.txt"), "explicit root\n");
    const client = await clientWithRoots(box, box.env, () => [other]);
    await new Promise((res) => setTimeout(res, 300));
    expect(await readWhenReady(client, "x.txt")).toContain("explicit root");
  });
});

describe("MCP roots from a client that pipelines its handshake (raw bytes)", () => {
  it("asks for roots when notifications/initialized is written right behind initialize", async () => {
    const box = sandbox();
    const raw = spawnRaw({ ...box, env: withoutRoots(box) });
    try {
      const init = {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: { roots: {} },
          clientInfo: { name: "raw", version: "1" },
        },
      };
      // One write: both lines reach the server in the same chunk, as a client that does not wait
      // for the initialize answer sends them.
      raw.write(
        `${JSON.stringify(init)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
      );
      const [answer, question] = (await raw.next(2, 120_000)) as Array<{ id?: unknown; method?: string }>;
      expect(answer?.id).toBe(0);
      expect(question?.method).toBe("roots/list");
    } finally {
      raw.child.kill("SIGKILL");
    }
  });
});

describe("an implicit root in the home directory (real process)", () => {
  it("still serves retrieve and compress, answers the edit tools naming --root, and doctor fails", async () => {
    const box = sandbox();
    const home = box.env.HOME as string;
    mkdirSync(home, { recursive: true });
    const env = withoutRoots(box);
    const client = new Client({ name: "home-test", version: "1" });
    open.push(client);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI], env, cwd: home, stderr: "pipe" }),
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("caveman_retrieve");
    expect(names).toContain("be-read");
    const log = Array.from({ length: 800 }, (_, i) => `2026-01-01T00:00:00Z INFO request ${i} ok`).join("\n");
    const packed = (await client.callTool({ name: "caveman_compress", arguments: { input: log } })) as {
      content: Array<{ text: string }>;
    };
    const handle = /ccr_[0-9a-f]{32}/.exec(packed.content[0]!.text)![0];
    const back = (await client.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle },
    })) as {
      content: Array<{ text: string }>;
    };
    expect(back.content[0]!.text).toBe(log);
    const edit = (await client.callTool({ name: "be-read", arguments: { path: join(home, "x") } })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(edit.isError).toBe(true);
    expect(edit.content[0]!.text).toMatch(
      /^be_outside_roots: refusing to use .* your home directory.*--root DIR/,
    );
    const doctor = spawnSync(process.execPath, [CLI, "doctor"], { env, cwd: home, encoding: "utf8" });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(/^FAIL root: refusing to use .*--root DIR.*serves retrieve and compress/m);
    const explicit = spawnSync(process.execPath, [CLI, "doctor", "--root", home], {
      env,
      cwd: home,
      encoding: "utf8",
    });
    expect(explicit.stdout).not.toMatch(/FAIL root/);
    expect(existsSync(join(home, "x"))).toBe(false);
  });
});
