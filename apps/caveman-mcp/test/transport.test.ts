// Raw-byte tests of the hardened transport against the real binary: each sends bytes a client
// might send, checks the exact reply, and checks the process is still serving or exited 0.

import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, INIT, ping, type Raw, sandbox, spawnRaw } from "./helpers.js";

type Msg = {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: string } };
};

async function alive(raw: Raw, id: number | string = "alive"): Promise<void> {
  raw.write(ping(id));
  const [reply] = (await raw.next(1)) as Msg[];
  expect(reply).toEqual({ jsonrpc: "2.0", id, result: {} });
}

async function endCleanly(raw: Raw): Promise<void> {
  raw.child.stdin!.end();
  expect(await raw.exit).toEqual({ code: 0, signal: null });
}

// The compress must finish, however busy the machine: the engine deadline (and with it the
// shutdown grace, which follows it) is this test's own, not the 4 s production default.
const SLOW_MACHINE = ["--engine-timeout-ms", "120000"];

describe("hardened stdio transport (raw bytes, real process)", () => {
  it("answers a malformed line -32700 without id, then a valid ping", async () => {
    const raw = spawnRaw(sandbox());
    raw.write('{"jsonrpc":"2.0","id":1,"method":"ping"\n');
    const [bad] = (await raw.next(1)) as Msg[];
    expect(bad).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    await alive(raw);
    await endCleanly(raw);
  });

  it("answers a batch with one array", async () => {
    const raw = spawnRaw(sandbox());
    raw.write(`[${INIT.trim()},${ping(2).trim()},{"jsonrpc":"2.0","method":"notifications/initialized"}]\n`);
    const [arr] = (await raw.next(1)) as Msg[][];
    expect(Array.isArray(arr)).toBe(true);
    expect(arr!.map((m) => m.id).sort()).toEqual([0, 2]);
    await alive(raw);
    await endCleanly(raw);
  });

  it("never answers a notification", async () => {
    const raw = spawnRaw(sandbox());
    raw.write(
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","method":"no/such/notification"}\n',
    );
    await alive(raw, 1);
    expect(raw.lines).toHaveLength(1);
    await endCleanly(raw);
  });

  it("serves a request with extra top-level keys", async () => {
    const raw = spawnRaw(sandbox());
    raw.write('{"jsonrpc":"2.0","id":3,"method":"ping","meta":{"trace":"x"},"foo":1}\n');
    expect(await raw.next(1)).toEqual([{ jsonrpc: "2.0", id: 3, result: {} }]);
    await endCleanly(raw);
  });

  it("discards a 17 MiB line, answers cave_payload_too_large with its id, then answers a ping", async () => {
    const raw = spawnRaw(sandbox());
    const big = `{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"caveman_compress","arguments":{"input":"${"a".repeat(17 * 1024 * 1024)}"}}}\n`;
    raw.write(big);
    raw.write(ping(42));
    const [tooBig, pong] = (await raw.next(2, 120_000)) as Msg[];
    expect(tooBig).toMatchObject({ id: 41, error: { data: { code: "cave_payload_too_large" } } });
    expect(tooBig!.error!.message).toMatch(/^cave_payload_too_large/);
    expect(pong).toEqual({ jsonrpc: "2.0", id: 42, result: {} });
    await endCleanly(raw);
  });

  it("reassembles UTF-8 split across chunks and refuses invalid UTF-8", async () => {
    const raw = spawnRaw(sandbox());
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: "2.0", id: "héllo-€", method: "ping" })}\n`,
      "utf8",
    );
    const cut = line.indexOf(0xe2) + 1;
    raw.write(line.subarray(0, cut));
    await new Promise((r) => setTimeout(r, 50));
    raw.write(line.subarray(cut));
    expect(await raw.next(1)).toEqual([{ jsonrpc: "2.0", id: "héllo-€", result: {} }]);
    raw.write(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    expect(await raw.next(1)).toMatchObject([{ id: null, error: { code: -32700 } }]);
    await alive(raw);
    await endCleanly(raw);
  });

  it("skips a leading BOM and blank lines", async () => {
    const raw = spawnRaw(sandbox());
    raw.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n  \r\n${ping(5)}`)]));
    expect(await raw.next(1)).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
    await endCleanly(raw);
  });

  it("treats a client that closes its end mid-reply as a disconnect and exits 0", async () => {
    const box = sandbox();
    const raw = spawnRaw(box);
    raw.write(INIT);
    await raw.next(1);
    const input = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ id: i, v: `value-${i}` })));
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "caveman_toon_encode", arguments: { input } } })}\n`,
    );
    raw.child.stdout!.destroy();
    const exit = await raw.exit;
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it("finishes work in flight when stdin ends, then exits 0", async () => {
    const raw = spawnRaw(sandbox(), SLOW_MACHINE);
    const input = JSON.stringify(
      Array.from({ length: 4_000 }, (_, i) => ({
        id: i,
        level: i % 9 ? "info" : "error",
        msg: `event ${i}`,
      })),
    );
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "caveman_compress", arguments: { input } } })}\n`,
    );
    raw.child.stdin!.end();
    const [reply] = (await raw.next(1, 150_000)) as Msg[];
    expect(reply).toMatchObject({
      id: 7,
      result: {
        content: [{ type: "text", text: expect.stringMatching(/^\[caveman: json compressed, /) }],
      },
    });
    expect(await raw.exit).toEqual({ code: 0, signal: null });
  }, 180_000);

  it("never answers a cancelled request and exits 0 at once on EOF instead of waiting for it", async () => {
    const raw = spawnRaw(sandbox());
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 30,
      method: "tools/call",
      params: { name: "caveman_stats", arguments: {} },
    });
    const cancel = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 30, reason: "user pressed Esc" },
    });
    raw.write(`${call}\n${cancel}\n`);
    await alive(raw, 31);
    await endCleanly(raw);
    // Before the fix the leaked request held shutdown for the grace period and then got a
    // `cave_shutting_down` error for a request the client had already given up on.
    expect(raw.lines.map((l) => (JSON.parse(l) as Msg).id)).toEqual([31]);
    expect(raw.stderr()).not.toMatch(/unfinished/);
  });

  it("answers a tools/call with no params or with string arguments as an isError result", async () => {
    const raw = spawnRaw(sandbox());
    raw.write('{"jsonrpc":"2.0","id":1,"method":"tools/call"}\n');
    const args = JSON.stringify({ path: "a.txt", content: "precious text that must not be lost".repeat(2) });
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "be-write", arguments: args } })}\n`,
    );
    const [none, str] = (await raw.next(2)) as Array<
      Msg & { result: { isError: boolean; content: Array<{ text: string }> } }
    >;
    expect(none!.result.isError).toBe(true);
    expect(none!.result.content[0]!.text).toMatch(/^cave_invalid_arguments: tools\/call needs params/);
    expect(str!.result.isError).toBe(true);
    expect(str!.result.content[0]!.text).toMatch(
      /^cave_invalid_arguments: be-write: arguments: .*string \(saved as chip:\/\/[0-9a-f]{6}\)$/,
    );
    expect(raw.stderr()).not.toMatch(/warning/);
    await endCleanly(raw);
  });

  it("finishes a call in flight on SIGTERM, then exits 0", async () => {
    const raw = spawnRaw(sandbox(), SLOW_MACHINE);
    await alive(raw);
    const input = JSON.stringify(
      Array.from({ length: 20_000 }, (_, i) => ({
        id: i,
        level: i % 7 ? "info" : "warn",
        msg: `event ${i}`,
      })),
    );
    const line = `${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "caveman_compress", arguments: { input } } })}\n`;
    // A signal and pipe data are not ordered: the signal goes once the server has answered the
    // ping sent after the call, so it has taken the call off the pipe (lines are read in order).
    raw.write(`${line}${ping("taken")}`);
    await raw.next(1, 150_000);
    raw.child.kill("SIGTERM");
    expect(await raw.exit).toEqual({ code: 0, signal: null });
    const reply = raw.lines.map((l) => JSON.parse(l) as Msg).find((m) => m.id === 8);
    expect(reply).toMatchObject({
      id: 8,
      result: {
        content: [{ type: "text", text: expect.stringMatching(/^\[caveman: json compressed, /) }],
      },
    });
  }, 180_000);

  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("exits 0 on %s", async (signal) => {
    const raw = spawnRaw(sandbox());
    await alive(raw);
    raw.child.kill(signal);
    expect(await raw.exit).toEqual({ code: 0, signal: null });
  });

  it("exits 0 on SIGTERM even when the client has stopped reading stdout (no wedge on flush)", async () => {
    const box = sandbox();
    const child = spawn(process.execPath, [CLI], {
      env: box.env,
      cwd: box.root,
      stdio: ["pipe", "pipe", "ignore"],
    });
    child.stdout.pause(); // the client never reads: our answers fill the pipe and stay there
    child.stdin.on("error", () => {});
    const exit = new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.on("exit", (code, signal) => r({ code, signal })),
    );
    const input = "x".repeat(300_000);
    for (let id = 1; id <= 4; id++) {
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "caveman_toon_encode", arguments: { input } } })}\n`,
      );
    }
    // Wait until the server has written more than a pipe holds, so its writer is blocked.
    while (child.stdout.readableLength < 64 * 1024) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGTERM");
    expect(await exit).toEqual({ code: 0, signal: null });
  });

  it("writes nothing but JSON-RPC messages, one per line, in a whole session", async () => {
    const box = sandbox();
    const raw = spawnRaw(box);
    raw.write(INIT);
    raw.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    raw.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
    raw.write("not json at all\n[]\n");
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "caveman_compress", arguments: { input: "x\n".repeat(5000) } } })}\n`,
    );
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "be-read", arguments: { path: "missing.txt" } } })}\n`,
    );
    raw.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "nope", arguments: {} } })}\n`,
    );
    raw.write('{"jsonrpc":"2.0","id":5,"method":"no/such"}\n');
    raw.child.stdin!.end();
    expect(await raw.exit).toEqual({ code: 0, signal: null });
    expect(raw.lines).toHaveLength(8);
    for (const line of raw.lines) {
      const msg = JSON.parse(line) as Record<string, unknown> | unknown[];
      const items = Array.isArray(msg) ? msg : [msg];
      for (const m of items) expect((m as { jsonrpc?: string }).jsonrpc).toBe("2.0");
    }
  });
});
