// `caveman-mcp proxy -- <server>`: the real binary around a real SDK server, driven by the SDK
// client (what a host does) and by raw bytes (the transport invariants).
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { allText, CLI, INIT, sandbox, spawnRaw, text } from "./helpers.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/wrapped-server.mjs", import.meta.url));
const { logText } = (await import(FIXTURE)) as { logText: () => string };

async function proxied(extra: string[] = []) {
  const box = sandbox();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "proxy", "--", process.execPath, FIXTURE, ...extra],
    env: box.env,
    cwd: box.root,
    stderr: "pipe",
  });
  const client = new Client({ name: "proxy-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, box };
}

describe("caveman-mcp proxy", () => {
  it("compresses a large text result, stores the original, and serves caveman_retrieve", async () => {
    const { client } = await proxied(["--noise"]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(["big_log", "small", "structured", "failing", "caveman_retrieve"]);
      const big = text(await client.callTool({ name: "big_log", arguments: {} }));
      expect(big.length).toBeLessThan(logText().length / 10);
      expect(big).toContain("card_declined");
      const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(big)?.[1];
      expect(handle).toBeDefined();
      // Over one retrieve page, the original comes back in pages that concatenate to it.
      let back = "";
      for (let page = 1, pages = 1; page <= pages; page++) {
        const r = await client.callTool({
          name: "caveman_retrieve",
          arguments: { recovery_handle: handle, ...(page > 1 ? { query: `page:${page}` } : {}) },
        });
        back += text(r);
        pages = Number(/\[caveman: page \d+ of (\d+) /.exec(allText(r))?.[1] ?? 1);
      }
      expect(back).toBe(logText());
    } finally {
      await client.close();
    }
  });

  it("passes small results and errors through unchanged, and shrinks what a host shows of a structured result", async () => {
    const { client } = await proxied();
    try {
      expect(text(await client.callTool({ name: "small", arguments: {} }))).toBe("just a little");
      const s = await client.callTool({ name: "structured", arguments: {} });
      // Claude Code would show the structured part alone: the stand-in replaces it and the text.
      expect(s.structuredContent).toBeUndefined();
      const shown = (s.content as Array<{ text: string }>)[0]!.text;
      expect(shown.startsWith("[caveman: ")).toBe(true);
      expect(shown.length).toBeLessThan(logText().length / 10);
      expect(shown).toContain("card_declined");
      const f = await client.callTool({ name: "failing", arguments: {} });
      expect(f.isError).toBe(true);
      expect(text(f)).toBe(logText());
    } finally {
      await client.close();
    }
  });

  it("keeps stdout pure, answers a malformed line -32700, and exits 0 on EOF", async () => {
    const box = sandbox();
    const raw = spawnRaw(box, ["proxy", "--", process.execPath, FIXTURE, "--noise"]);
    raw.write(INIT);
    const [init] = (await raw.next(1)) as Array<{ result: { serverInfo: { name: string } } }>;
    expect(init!.result.serverInfo.name).toBe("fixture");
    raw.write("{not json\n");
    const [bad] = (await raw.next(1)) as Array<{ id: unknown; error: { code: number } }>;
    expect(bad).toMatchObject({ id: null, error: { code: -32700 } });
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "big_log", arguments: {} } })}\n`,
    );
    const [call] = (await raw.next(1)) as Array<{ id: number }>;
    expect(call!.id).toBe(5);
    raw.child.stdin!.end();
    expect((await raw.exit).code).toBe(0);
    for (const line of raw.lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(raw.lines.some((l) => l.includes("not JSON"))).toBe(false);
  });

  it("exits 0 on SIGTERM and stops the wrapped server", async () => {
    const box = sandbox();
    const raw = spawnRaw(box, ["proxy", "--", process.execPath, FIXTURE]);
    raw.write(INIT);
    await raw.next(1);
    raw.child.kill("SIGTERM");
    expect((await raw.exit).code).toBe(0);
  });

  it("treats a client that closes its end as a disconnect: exits 0 and stops the server", async () => {
    const box = sandbox();
    const raw = spawnRaw(box, ["proxy", "--", process.execPath, FIXTURE]);
    raw.write(INIT);
    await raw.next(1);
    raw.child.stdout!.destroy();
    for (let i = 1; i <= 3; i++)
      raw.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "big_log", arguments: {} } })}\n`,
      );
    expect(await raw.exit).toEqual({ code: 0, signal: null });
  });

  it("exits 127 with a clear message when the server cannot be started", async () => {
    const box = sandbox();
    const raw = spawnRaw(box, ["proxy", "--", "/definitely/not/a/server"]);
    const exit = await raw.exit;
    expect(exit.code).toBe(127);
    expect(raw.stderr()).toMatch(/cannot start \/definitely\/not\/a\/server/);
    expect(raw.lines).toEqual([]);
  });
});
