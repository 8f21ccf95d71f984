// The compression family through the real binary and the SDK Client.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { allText, connect, handleIn, type Sandbox, sandbox, text } from "./helpers.js";

type Closer = { close(): Promise<void> };
const open: Closer[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function client(box: Sandbox, args: string[] = []) {
  const c = await connect(box, args);
  open.push(c.client);
  return c.client;
}

const bigJson = () =>
  JSON.stringify(
    Array.from({ length: 400 }, (_, i) => ({
      id: i,
      user: `user${i % 17}`,
      status: i % 11 ? "ok" : "failed",
      latency_ms: (i * 37) % 500,
    })),
    null,
    2,
  );

/** A stand-in's header, its first line: kind, tokens in -> out, and the handle. */
const HEADER =
  /^\[caveman: (\w+) compressed, (\d+) -> (\d+) tokens; original: caveman_retrieve recovery_handle "(ccr_[0-9a-f]{32})"/;

describe("compression tools (real process)", () => {
  it("compresses, and a second server process sharing the database retrieves the original byte-exact", async () => {
    const box = sandbox();
    const input = bigJson();
    const a = await client(box);
    const r = (await a.callTool({
      name: "caveman_compress",
      arguments: { input, hint: "json" },
    })) as CallToolResult;
    expect(r.structuredContent).toBeUndefined();
    const [, kind, tokensIn, tokensOut, handle] = HEADER.exec(allText(r)) ?? [];
    expect(kind).toBe("json");
    expect(Number(tokensOut)).toBeLessThan(Number(tokensIn));
    expect(text(r).length).toBeLessThan(input.length);
    await a.close();
    const b = await client(box);
    const back = await b.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle },
    });
    expect(text(back)).toBe(input);
    const spelled = await b.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: `<<ccr:${handle!.slice(4)}>>` },
    });
    expect(text(spelled)).toContain("already returned");
  });

  it("passes small input through unchanged with no handle and a reason", async () => {
    const c = await client(sandbox());
    const r = (await c.callTool({
      name: "caveman_compress",
      arguments: { input: "hello world" },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(text(r)).toBe("hello world");
    expect(allText(r)).toMatch(
      /^hello world\n\[caveman: not compressed \(below_floor\); text; \d+ tokens; no recovery_handle\]$/,
    );
  });

  it("rejects unknown keys and wrong types with the key and the accepted ones", async () => {
    const c = await client(sandbox());
    const r = await c.callTool({ name: "caveman_compress", arguments: { input: "x", colour: "red" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /^cave_invalid_arguments: caveman_compress: unknown key "colour"; accepted: input, hint, query/,
    );
    const t = await c.callTool({ name: "caveman_compress", arguments: { input: 42 } });
    expect(text(t)).toMatch(/^cave_invalid_arguments: .*"input"/);
  });

  it("answers an unknown handle with cave_unknown_handle, never a payload", async () => {
    const c = await client(sandbox());
    for (const h of ["ccr_0123456789abcdef0123456789abcdef", "not a handle"]) {
      const r = await c.callTool({ name: "caveman_retrieve", arguments: { recovery_handle: h } });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^cave_unknown_handle: /);
    }
  });

  it("applies the anti-storm rules per session: repeat pointer, then the full original after 5 distinct queries", async () => {
    const box = sandbox();
    const input = bigJson();
    const c = await client(box);
    const r = await c.callTool({ name: "caveman_compress", arguments: { input } });
    const handle = handleIn(r)!;
    const first = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "user3" },
    });
    expect(text(first)).not.toBe(input);
    const again = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "  user3 " },
    });
    expect(text(again)).toMatch(/already returned in this session \(retrieve #1\)/);
    for (const q of ["user4", "user5", "user6", "user7"]) {
      const v = await c.callTool({
        name: "caveman_retrieve",
        arguments: { recovery_handle: handle, query: q },
      });
      expect(v.isError).toBeFalsy();
    }
    const sixth = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "user8" },
    });
    expect(text(sixth)).toBe(input);
    expect(allText(sixth)).toContain("returning the full original");
    // A new session has seen nothing yet, so nothing is withheld from it.
    const other = await client(box);
    const fresh = await other.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "user3" },
    });
    expect(text(fresh)).toBe(text(first));
  });

  it("never compresses a retrieve's own output again", async () => {
    const c = await client(sandbox());
    const input = bigJson();
    const r = await c.callTool({ name: "caveman_compress", arguments: { input } });
    const handle = handleIn(r)!;
    const back = await c.callTool({ name: "caveman_retrieve", arguments: { recovery_handle: handle } });
    const again = await c.callTool({ name: "caveman_compress", arguments: { input: text(back) } });
    expect(text(again)).toBe(input);
    expect(allText(again)).toContain("[caveman: not compressed (retrieved_output); ");
    expect(handleIn(again)).toBeNull();
  });

  it("reports session stats net of retrieved tokens, inferred and session-scoped", async () => {
    const c = await client(sandbox());
    const input = bigJson();
    const r = await c.callTool({ name: "caveman_compress", arguments: { input } });
    const [, , tokensIn, tokensOut, handle] = HEADER.exec(allText(r)) ?? [];
    await c.callTool({ name: "caveman_retrieve", arguments: { recovery_handle: handle } });
    const st = await c.callTool({ name: "caveman_stats", arguments: {} });
    // A data tool: its structured content is the payload and its text is the same JSON.
    const stats = JSON.parse(text(st)) as Record<string, number | string>;
    expect(st.structuredContent).toEqual(stats);
    expect(stats).toMatchObject({ basis: "inferred", scope: "session", calls: 1, retrieves: 1 });
    expect(stats.saved_tokens_net).toBe(
      Number(tokensIn) - Number(tokensOut) - (stats.retrieved_tokens as number),
    );
    expect(JSON.stringify(st)).not.toMatch(/verified/);
  });

  it("encodes JSON to TOON and back; bad JSON passes through with a note; bad TOON is cave_toon_invalid", async () => {
    const c = await client(sandbox());
    const json = JSON.stringify({
      users: [
        { id: 1, name: "a" },
        { id: 2, name: "b" },
      ],
    });
    const enc = await c.callTool({ name: "caveman_toon_encode", arguments: { input: json } });
    expect(enc.isError).toBeFalsy();
    expect(allText(enc)).toMatch(
      /^users\[2\]\{id,name\}:\n {2}1,a\n {2}2,b\n\[caveman: TOON; \d+ -> \d+ bytes; \d+ -> \d+ tokens\]$/,
    );
    const dec = await c.callTool({ name: "caveman_toon_decode", arguments: { input: text(enc) } });
    expect(JSON.parse(text(dec))).toEqual(JSON.parse(json));
    expect(allText(dec)).toMatch(/\n\[caveman: JSON; \d+ -> \d+ bytes; \d+ -> \d+ tokens\]$/);
    const bad = await c.callTool({ name: "caveman_toon_encode", arguments: { input: "{not json" } });
    expect(bad.isError).toBeFalsy();
    expect(text(bad)).toBe("{not json");
    expect(allText(bad)).toContain("not encoded");
    const badToon = await c.callTool({
      name: "caveman_toon_decode",
      arguments: { input: "users[3]{id,name}:\n  1,a" },
    });
    expect(badToon.isError).toBe(true);
    expect(text(badToon)).toMatch(/^cave_toon_invalid: /);
  });

  it("falls back to memory when the database cannot open, and says so in caveman_stats", async () => {
    const box = sandbox();
    writeFileSync(join(box.base, "not-a-dir"), "x");
    box.env.CAVEMAN_CCR_DB = join(box.base, "not-a-dir", "ccr.db");
    const c = await client(box);
    const st = await c.callTool({ name: "caveman_stats", arguments: {} });
    expect(JSON.parse(text(st))).toMatchObject({
      store: { backend: "memory", fallback: expect.any(String) },
    });
  });

  it("negotiates every protocol version it is offered", async () => {
    const { spawnRaw } = await import("./helpers.js");
    const raw = spawnRaw(sandbox());
    const versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2031-01-01"];
    for (const [i, v] of versions.entries()) {
      raw.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: i, method: "initialize", params: { protocolVersion: v, capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
      );
    }
    const replies = (await raw.next(versions.length)) as Array<{
      id: number;
      result: { protocolVersion: string };
    }>;
    const byId = replies.sort((x, y) => x.id - y.id).map((r) => r.result.protocolVersion);
    expect(byId).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2025-11-25"]);
    raw.child.stdin!.end();
    expect((await raw.exit).code).toBe(0);
  });
});
