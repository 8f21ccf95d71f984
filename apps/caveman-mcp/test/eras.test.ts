// The two protocol eras on the wire, raw bytes against the built binary. A modern (2026-07-28)
// request names its version and capabilities in `_meta`, needs no initialize, and gets
// `resultType` (and `ttlMs`/`cacheScope` on lists); each request is judged alone, so legacy and
// modern requests can even alternate on one connection. The legacy handshake keeps answering
// every version back to 2024-11-05.
import { afterEach, describe, expect, it } from "vitest";
import { INIT, type Raw, sandbox, spawnRaw } from "./helpers.js";

const MODERN = "2026-07-28";
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const meta = (version: unknown = MODERN, caps: unknown = {}) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": caps,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
});
const line = (id: number, method: string, params?: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`;

type Msg = {
  id?: unknown;
  result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const running: Raw[] = [];
afterEach(() => {
  for (const r of running.splice(0)) r.child.kill("SIGKILL");
});
function start(args: string[] = []): Raw {
  const raw = spawnRaw(sandbox(), args);
  running.push(raw);
  return raw;
}
async function ask(raw: Raw, text: string, count = 1): Promise<Msg[]> {
  raw.write(text);
  return (await raw.next(count)) as Msg[];
}

describe("modern era (2026-07-28) over stdio, raw bytes", () => {
  it("answers server/discover without initialize: versions, capabilities, identity, resultType, cache hints", async () => {
    const raw = start();
    const [r] = await ask(raw, line(1, "server/discover", { _meta: meta() }));
    expect(r?.id).toBe(1);
    expect(r?.result).toEqual({
      supportedVersions: [MODERN],
      capabilities: { tools: { listChanged: false } },
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { [SERVER_INFO]: { name: "caveman-mcp", version: expect.any(String) } },
    });
  });

  it("serves tools/list and tools/call with only per-request _meta; lists carry ttlMs and cacheScope", async () => {
    const raw = start(["--tools", "compress"]);
    const [list] = await ask(raw, line(1, "tools/list", { _meta: meta() }));
    expect(list?.result?.resultType).toBe("complete");
    expect(list?.result?.ttlMs).toBe(3_600_000);
    expect(list?.result?.cacheScope).toBe("private");
    expect(list?.result?.tools).toHaveLength(5);
    expect(list?.result?._meta?.[SERVER_INFO]).toMatchObject({ name: "caveman-mcp" });
    const [call] = await ask(
      raw,
      line(2, "tools/call", { name: "caveman_toon_decode", arguments: { input: "a: 1" }, _meta: meta() }),
    );
    expect(call?.result?.resultType).toBe("complete");
    expect(call?.result).not.toHaveProperty("ttlMs");
    expect(JSON.stringify(call?.result?.content)).toContain('{\\"a\\":1}');
  });

  it("judges every request alone: legacy and modern requests alternate on one connection", async () => {
    const raw = start(["--tools", "compress"]);
    const [init] = await ask(raw, INIT);
    expect(init?.result?.protocolVersion).toBe("2025-06-18");
    const [modern] = await ask(raw, line(1, "tools/list", { _meta: meta() }));
    expect(modern?.result?.resultType).toBe("complete");
    const [legacy] = await ask(raw, line(2, "tools/list"));
    expect(legacy?.result).not.toHaveProperty("resultType");
    expect(legacy?.result).not.toHaveProperty("ttlMs");
    expect(legacy?.result).not.toHaveProperty("_meta");
    const [bad] = await ask(raw, line(3, "tools/list", { _meta: meta("2099-01-01") }));
    expect(bad?.error?.code).toBe(-32022);
  });

  it("answers an unsupported version with -32022 naming the supported ones, and keeps serving", async () => {
    const raw = start();
    const [r] = await ask(raw, line(7, "tools/list", { _meta: meta("2099-01-01") }));
    expect(r?.id).toBe(7);
    expect(r?.error?.code).toBe(-32022);
    expect(r?.error?.data).toEqual({ supported: [MODERN], requested: "2099-01-01" });
    const [odd] = await ask(raw, line(8, "server/discover", { _meta: meta(42) }));
    expect(odd?.error?.data).toEqual({ supported: [MODERN], requested: "unknown" });
    // server/discover exists only in the modern era: without the envelope it names the versions.
    const [bare] = await ask(raw, line(9, "server/discover"));
    expect(bare?.error?.code).toBe(-32022);
    expect(bare?.error?.data).toEqual({ supported: [MODERN] });
    const [ok] = await ask(raw, line(10, "server/discover", { _meta: meta() }));
    expect(ok?.result?.supportedVersions).toEqual([MODERN]);
  });

  it("refuses a modern request without clientCapabilities, and methods the modern revision removed", async () => {
    const raw = start();
    const [noCaps] = await ask(raw, line(1, "tools/list", { _meta: meta(MODERN, null) }));
    expect(noCaps?.error?.code).toBe(-32602);
    expect(noCaps?.error?.message).toContain("clientCapabilities");
    for (const [id, method] of [
      [2, "ping"],
      [3, "logging/setLevel"],
      [4, "initialize"],
      [5, "resources/list"],
    ] as const) {
      const [r] = await ask(raw, line(id, method, { _meta: meta() }));
      expect(r?.error?.code, method).toBe(-32601);
    }
    // The same ping without the envelope is a legacy ping, answered as always.
    const [legacyPing] = await ask(raw, line(6, "ping"));
    expect(legacyPing?.result).toEqual({});
  });

  it("keeps failure chips for modern calls: the chip note reaches the result, which still has resultType", async () => {
    const raw = start(["--tools", "compress"]);
    const [r] = await ask(
      raw,
      line(1, "tools/call", {
        name: "caveman_compress",
        arguments: { input: "a long enough input for the chip threshold to apply here", level: 9 },
        _meta: meta(),
      }),
    );
    expect(r?.result?.isError).toBe(true);
    expect(r?.result?.resultType).toBe("complete");
    expect(JSON.stringify(r?.result?.content)).toMatch(
      /cave_invalid_arguments: .*\(saved as chip:\/\/[0-9a-f]{6}\)/,
    );
  });

  it("keeps a chip of a tools/call refused for its version, before any validation", async () => {
    const raw = start(["--tools", "compress"]);
    const [r] = await ask(
      raw,
      line(1, "tools/call", {
        name: "caveman_compress",
        arguments: { input: "a long enough input for the chip threshold to apply to this call" },
        _meta: meta("2099-01-01"),
      }),
    );
    expect(r?.error?.code).toBe(-32022);
    expect(r?.error?.message).toMatch(
      /^Unsupported protocol version: 2099-01-01 .*\(saved as chip:\/\/[0-9a-f]{6}\)$/,
    );
  });
});

describe("legacy era over stdio, raw bytes", () => {
  it("answers initialize for every legacy version back to 2024-11-05, and 2026-07-28 with the newest legacy one", async () => {
    const raw = start();
    const versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
    for (const [i, v] of versions.entries()) {
      const [r] = await ask(
        raw,
        line(i + 1, "initialize", {
          protocolVersion: v,
          capabilities: {},
          clientInfo: { name: "x", version: "1" },
        }),
      );
      expect(r?.result?.protocolVersion, v).toBe(v);
      expect(r?.result).not.toHaveProperty("resultType");
    }
    const [modernAsk] = await ask(
      raw,
      line(9, "initialize", {
        protocolVersion: MODERN,
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      }),
    );
    expect(modernAsk?.result?.protocolVersion).toBe("2025-11-25");
  });

  it("answers a batch as one array (batches are a legacy-era feature)", async () => {
    const raw = start(["--tools", "compress"]);
    raw.write(
      `${JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "ping" },
        { jsonrpc: "2.0", id: "b", method: "tools/list" },
      ])}\n`,
    );
    const [batch] = (await raw.next(1)) as Msg[][];
    expect(batch?.map((m) => m.id).sort()).toEqual(["a", "b"]);
  });
});
