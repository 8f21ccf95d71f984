// Finding 8: a server (or anything posing as one) that announces a huge reply cannot make the
// team store buffer it. Against a fake server that answers the script with a 2 GB bulk-string
// header and then keeps sending, the get fails with store_unavailable naming the cap, the link is
// closed at once (long before any command timeout), and the store keeps working elsewhere.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openRedisStore } from "./store.js";

/** Just enough of a Redis server for ioredis's handshake; `onScript` answers EVAL. */
function fakeRedis(onScript: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer((socket) => {
      socket.on("error", () => undefined);
      let pending = "";
      socket.on("data", (chunk) => {
        pending += chunk.toString("latin1");
        // Commands are arrays of bulk strings; this fake needs only their names.
        for (;;) {
          const m = /^\*(\d+)\r\n/.exec(pending);
          if (!m) return;
          let at = m[0].length;
          const args: string[] = [];
          for (let i = 0; i < Number(m[1]); i++) {
            const h = /^\$(\d+)\r\n/.exec(pending.slice(at));
            if (!h || pending.length < at + h[0].length + Number(h[1]) + 2) return;
            args.push(pending.slice(at + h[0].length, at + h[0].length + Number(h[1])));
            at += h[0].length + Number(h[1]) + 2;
          }
          pending = pending.slice(at);
          const name = args[0]?.toUpperCase();
          if (name === "INFO") {
            const info = "# Server\r\nredis_version:7.0.15\r\nloading:0\r\n";
            socket.write(`$${info.length}\r\n${info}\r\n`);
          } else if (name === "EVALSHA") socket.write("-NOSCRIPT No matching script.\r\n");
          else if (name === "EVAL") onScript(socket);
          else socket.write("+OK\r\n");
        }
      });
    });
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

describe("replies bounded by the protocol's lengths", () => {
  it("closes the link on a 2 GB bulk header instead of buffering what follows", async () => {
    let written = 0;
    let closedAfter = -1;
    const { server, port } = await fakeRedis((socket) => {
      socket.write("$2147483647\r\n");
      const chunk = Buffer.alloc(1 << 20, 0x61);
      const drip = setInterval(() => {
        if (socket.destroyed) return clearInterval(drip);
        written += chunk.length;
        socket.write(chunk);
      }, 2);
      socket.on("close", () => {
        clearInterval(drip);
        closedAfter = written;
      });
    });
    servers.push(server);
    // Command bounds far beyond the test's own: only the guard can end this get in time.
    const store = openRedisStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 600_000 });
    try {
      await store.ready(30_000);
      const err = await store.get(`ccr_${"0".repeat(32)}`).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "store_unavailable" });
      expect(String((err as Error).message)).toMatch(/2147483647 bytes, over the \d+-byte cap/);
      await new Promise((r) => setTimeout(r, 200));
      expect(closedAfter).toBeGreaterThanOrEqual(0);
      expect(closedAfter).toBeLessThan(64 << 20);
    } finally {
      await store.close();
    }
  });
});
