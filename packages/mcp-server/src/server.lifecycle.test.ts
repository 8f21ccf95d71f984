// The stdio server's life: in-flight work at EOF, the shutdown grace period, cancelled
// requests, a client that stops reading, and backpressure while answers are not read.
import { PassThrough, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { call, handle, type Msg, release, serve, start, stop, tools } from "./server.test-helpers.js";

afterEach(stop);

describe("hardened stdio server", () => {
  it("finishes in-flight work after EOF before closing", async () => {
    const h = await start();
    h.write(call(1, "slow", {}));
    await new Promise((r) => setTimeout(r, 20));
    h.stdin.end();
    await new Promise((r) => setTimeout(r, 20));
    release?.();
    expect((await h.one()).result).toMatchObject({ content: [{ text: "done" }] });
    expect(await handle!.closed).toBe("eof");
  });

  it("answers work that outlives the grace period with a shutdown error", async () => {
    const h = await start({ shutdownGraceMs: 50 });
    h.write(call(9, "slow", {}));
    await new Promise((r) => setTimeout(r, 20));
    h.stdin.end();
    expect(await h.one()).toMatchObject({ id: 9, error: { data: { code: "cave_shutting_down" } } });
    expect(await handle!.closed).toBe("eof");
    release?.();
  });

  it("never answers a request the client cancelled, and does not wait for it at shutdown", async () => {
    const h = await start({ shutdownGraceMs: 60_000 });
    // Request and cancellation in one chunk: the SDK aborts before the handler's answer is sent.
    h.write(
      `${call(4, "slow", {}).trim()}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } })}\n`,
    );
    h.write('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
    expect(await h.one()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
    expect(handle!.inFlight).toBe(0);
    release?.();
    h.stdin.end();
    // With a 60 s grace a leaked request would hold `closed` far past the test timeout.
    expect(await handle!.closed).toBe("eof");
    expect(h.lines).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
  });

  it("treats a client that stops reading as a disconnect, not a crash", async () => {
    const h = await start();
    h.stdout.destroy();
    h.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(await handle!.closed).toBe("client_gone");
  });

  it("stops taking requests while the client is not reading answers, and resumes after", async () => {
    const stdin = new PassThrough();
    const got: string[] = [];
    let held: Array<() => void> | undefined = [];
    const stdout = new Writable({
      highWaterMark: 8,
      write(chunk: Buffer, _enc, cb) {
        got.push(chunk.toString("utf8"));
        if (held) held.push(() => cb());
        else cb();
      },
    });
    await serve({ stdin, stdout, tools, version: "0.0.0-test" });
    const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
    stdin.write(ping(1));
    while (got.length === 0) await new Promise((r) => setImmediate(r));
    // The client has read nothing: its further requests are held, not run; past 1 MiB of them
    // stdin is paused and the rest stays in the pipe.
    const total = 5000;
    for (let i = 2; i <= total; i++) stdin.write(ping(i));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(1);
    expect(stdin.isPaused()).toBe(true);
    expect(stdin.readableLength).toBeGreaterThan(0);
    const pending = held ?? [];
    held = undefined;
    for (const cb of pending) cb();
    while (got.join("").split("\n").filter(Boolean).length < total) await new Promise((r) => setImmediate(r));
    const ids = got
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as Msg).id);
    expect(ids).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(stdin.isPaused()).toBe(false);
  });
});
