// Bounded memory and a bounded exit in the transport, measured on the real binary: the server's
// own peak RSS (VmHWM in /proc/<pid>/status) while a line arrives one byte per write, while it
// is flooded with stray responses and nobody reads its stderr, and how long it takes to leave
// after stdin EOF when nobody reads its stdout.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ping, sandbox } from "./helpers.js";

const MB = 1024 * 1024;

/** Peak (VmHWM) or current (VmRSS) resident set of a process, in bytes (Linux). */
function peakRss(pid: number, field: "VmHWM" | "VmRSS" = "VmHWM"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? 0) * 1024;
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((r) => child.on("exit", (code, signal) => r({ code, signal })));
}

/** Collects stdout lines (JSON) of a child. */
function lines(child: ChildProcess) {
  const got: Array<{ id?: unknown }> = [];
  let buf = "";
  child.stdout!.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
      got.push(JSON.parse(buf.slice(0, nl)) as { id?: unknown });
      buf = buf.slice(nl + 1);
    }
  });
  return {
    got,
    async until(id: unknown, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      while (!got.some((m) => m.id === id)) {
        if (Date.now() > end) throw new Error(`no answer for id ${String(id)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("transport memory and exit bounds (real process)", () => {
  it("holds a 4 MB line that arrives one byte per write in at most twice its size", async () => {
    const box = sandbox();
    const dripper = spawn(process.execPath, [join(import.meta.dirname, "fixtures", "dripper.mjs")], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    // The young generation is pinned small: a line dripped a byte at a time makes millions of
    // short-lived chunks, and how far V8 grows its nursery for them differs between Node lines
    // (Node 26 grew it ~13 MB here, Node 20 not at all) and with unrelated changes to the bundle.
    // That slack is not memory the line holds, which is what this test bounds.
    const server = spawn(process.execPath, ["--max-semi-space-size=1", CLI], {
      env: box.env,
      cwd: box.root,
      stdio: [dripper.stdout!, "pipe", "ignore"],
    });
    const out = lines(server);
    const acks: string[] = [];
    dripper.stderr!.on("data", (c: Buffer) => acks.push(...c.toString().trim().split("\n")));
    const command = async (cmd: string) => {
      const n = acks.length;
      dripper.stdin!.write(`${cmd}\n`);
      while (acks.length === n) await sleep(20);
    };
    try {
      // Warm up on a dripped line, so the baseline already holds what dripping itself costs.
      await command("line 262144 1");
      await out.until(1);
      await sleep(300);
      const baseline = peakRss(server.pid!);
      const rssBefore = peakRss(server.pid!, "VmRSS");
      const size = 4 * MB;
      await command(`partial ${size} 2`);
      await sleep(500);
      const peak = peakRss(server.pid!);
      const rssPartial = peakRss(server.pid!, "VmRSS");
      await command("nl");
      await out.until(2);
      process.stderr.write(
        `drip report: line ${size} bytes, baseline ${(baseline / MB).toFixed(1)} MB, peak while partial ${(peak / MB).toFixed(1)} MB, +${((peak - baseline) / MB).toFixed(1)} MB; current RSS ${(rssBefore / MB).toFixed(1)} -> ${(rssPartial / MB).toFixed(1)} MB\n`,
      );
      expect(peak - baseline).toBeLessThanOrEqual(2 * size);
    } finally {
      dripper.kill();
      server.kill();
    }
  }, 300_000);

  it("exits within its bound after stdin EOF while nobody reads its stdout", async () => {
    const box = sandbox();
    const server = spawn(process.execPath, [CLI], {
      env: box.env,
      cwd: box.root,
      stdio: ["pipe", "pipe", "ignore"],
    });
    server.stdout!.pause(); // never read: answers fill the pipe and stay there
    server.stdin!.on("error", () => {});
    const exit = exited(server);
    const input = "x".repeat(300_000);
    for (let id = 1; id <= 40; id++) {
      server.stdin!.write(
        `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "caveman_toon_encode", arguments: { input } } })}\n`,
      );
    }
    while (server.stdout!.readableLength < 64 * 1024) await sleep(50);
    server.stdin!.end();
    // Documented: output stalled for 3 s, then at most the 2 s final flush. The cap here is the
    // test's own, far past that on any load: a server that waits for a reader never exits at all.
    const timeout = sleep(120_000).then(() => "still running" as const);
    const result = await Promise.race([exit, timeout]);
    if (result === "still running") server.kill("SIGKILL");
    expect(result).toEqual({ code: 0, signal: null });
  }, 180_000);

  it("keeps memory bounded under a flood of stray responses while nobody reads its stderr", async () => {
    const box = sandbox();
    const server = spawn(process.execPath, [CLI], {
      env: box.env,
      cwd: box.root,
      stdio: ["pipe", "pipe", "pipe"],
    });
    server.stderr!.pause(); // never read
    const out = lines(server);
    server.stdin!.write(ping("warm"));
    await out.until("warm");
    await sleep(300);
    const baseline = peakRss(server.pid!);
    const pad = "y".repeat(20_000);
    const total = 5000;
    for (let i = 0; i < total; i++) {
      const ok = server.stdin!.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: 100_000 + i, result: { pad } })}\n`,
      );
      if (!ok) await new Promise((r) => server.stdin!.once("drain", r));
    }
    server.stdin!.write(ping("after"));
    await out.until("after");
    const peak = peakRss(server.pid!);
    process.stderr.write(
      `stray report: ${total} stray responses of ${pad.length} bytes, baseline ${(baseline / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB, +${((peak - baseline) / MB).toFixed(1)} MB\n`,
    );
    expect(peak - baseline).toBeLessThan(40 * MB);
    server.kill();
  }, 300_000);
});
