// Findings 1, 2, 4 and 5 on the real binary: the proxy answers while nobody reads its stderr, ends
// a wrapped server that ignores EOF and SIGTERM (its whole process group, a shell's grandchild
// too) within bounded waits, passes an answer with invalid UTF-8 through byte for byte, and keeps
// its own caveman_retrieve beside a wrapped one it renames.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, existsSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI, INIT, ping, sandbox } from "./helpers.js";

const RAW = fileURLToPath(new URL("./fixtures/raw-server.mjs", import.meta.url));

/**
 * The proxy with its stdout read line by line. Its stderr is a real pipe (a FIFO, 64 KiB of
 * buffer, as a shell's `2>|` or a host's pipe gives) that nobody ever reads.
 */
function proxy(args: string[]) {
  const box = sandbox();
  const fifo = join(box.base, "stderr.fifo");
  execFileSync("mkfifo", [fifo]);
  // Read-write, so the open does not wait for a reader; nothing ever reads it.
  const stderr = openSync(fifo, constants.O_RDWR);
  const child = spawn(process.execPath, [CLI, "proxy", "--", ...args], {
    env: box.env,
    cwd: box.root,
    stdio: ["pipe", "pipe", stderr],
  });
  closeSync(stderr);
  const chunks: Buffer[] = [];
  const waiters: Array<() => void> = [];
  child.stdout?.on("data", (c: Buffer) => {
    chunks.push(c);
    for (const w of waiters.splice(0)) w();
  });
  const lines = () => Buffer.concat(chunks).toString("latin1").split("\n").filter(Boolean);
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on("exit", (code, signal) => r({ code, signal })),
  );
  return {
    box,
    child,
    bytes: () => Buffer.concat(chunks),
    lines,
    exited,
    send: (text: string) => child.stdin?.write(text),
    async until(pred: (lines: string[]) => boolean): Promise<string[]> {
      while (!pred(lines())) await new Promise<void>((r) => waiters.push(r));
      return lines();
    },
  };
}

const call = (id: number, name: string) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } })}\n`;

describe("caveman-mcp proxy under a hostile host and server", () => {
  it("answers while the host never reads its stderr, with 5000 noise lines from the server (finding 1)", async () => {
    const p = proxy([process.execPath, RAW, "--noise", "5000"]);
    try {
      p.send(INIT);
      p.send(ping(1));
      const lines = await p.until((l) => l.some((x) => x.includes('"id":1')));
      expect(lines.some((x) => x.includes('"id":0'))).toBe(true);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("ends a server that ignores EOF and SIGTERM, and its shell's grandchild, within bounded waits (finding 2)", async () => {
    for (const how of ["eof", "sigterm"] as const) {
      const box = sandbox();
      const pids = join(box.base, `pids-${how}`);
      const p = proxy(["sh", "-c", `trap "" TERM; sleep 1000 & echo $! > ${pids}; wait`]);
      while (!existsSync(pids) || readFileSync(pids, "utf8").trim() === "")
        await new Promise((r) => setTimeout(r, 50));
      const grandchild = Number(readFileSync(pids, "utf8").trim());
      if (how === "eof") p.child.stdin?.end();
      else p.child.kill("SIGTERM");
      const exit = await p.exited;
      expect(exit.signal).toBeNull();
      // The sleep ignored SIGTERM like its shell: only the group's SIGKILL could end it.
      let alive = true;
      for (let tries = 0; tries < 50 && alive; tries++) {
        try {
          process.kill(grandchild, 0);
          await new Promise((r) => setTimeout(r, 100));
        } catch {
          alive = false;
        }
      }
      expect(alive, `${how}: the grandchild ${grandchild} outlived the proxy`).toBe(false);
    }
  }, 180_000);

  it("passes invalid UTF-8 through byte for byte and renames the server's own caveman_retrieve (findings 4, 5)", async () => {
    const p = proxy([process.execPath, RAW]);
    try {
      p.send(INIT);
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n');
      const listed = await p.until((l) => l.some((x) => x.startsWith('{"jsonrpc":"2.0","id":1')));
      const list = JSON.parse(listed.find((x) => x.startsWith('{"jsonrpc":"2.0","id":1'))!);
      expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual([
        "raw__caveman_retrieve",
        "bin",
        "caveman_retrieve",
      ]);
      p.send(call(2, "bin"));
      p.send(call(3, "raw__caveman_retrieve"));
      await p.until((l) => l.some((x) => x.includes('"id":2')) && l.some((x) => x.includes('"id":3')));
      const raw = p.bytes();
      const expected = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"lone '),
        Buffer.from([0xff]),
        Buffer.from(' byte"}]}}\n'),
      ]);
      expect(raw.includes(expected)).toBe(true);
      const theirs = JSON.parse(p.lines().find((x) => x.includes('"id":3'))!);
      expect(theirs.result.content[0].text).toBe("theirs: caveman_retrieve");
    } finally {
      p.child.kill("SIGKILL");
    }
  });
});
