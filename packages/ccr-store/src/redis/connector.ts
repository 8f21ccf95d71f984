// The sockets of the team store's client, with every reply held to the protocol's lengths (see
// replyGuard.ts). ioredis asks its Connector for each stream it uses — the main link, each
// cluster node, the throwaway links of a slot refresh — so the guard is on every one of them:
// the scanner is the first reader of each chunk, and a reply over the limits destroys the socket
// at once with an error saying why (the client then reconnects, with backoff, like after any
// lost link).
import { createConnection, type Socket } from "node:net";
import { type TLSSocket, type ConnectionOptions as TlsOptions, connect as tlsConnect } from "node:tls";
import { AbstractConnector, type RedisOptions } from "ioredis";
import { type ReplyLimits, replyScanner } from "./replyGuard.js";

type NodeOptions = { host?: string; port?: number; family?: number; tls?: TlsOptions };

/** The error a guarded socket is destroyed with; its message is what `lastError` shows. */
export class ReplyRefused extends Error {
  override readonly name = "ReplyRefused";
}

/** Watch a socket's replies; destroy it when one breaks the limits. */
function guard(stream: Socket | TLSSocket, limits: ReplyLimits): void {
  const scan = replyScanner(limits, (why) => {
    stream.destroy(new ReplyRefused(`the server sent ${why}; the link was closed before reading it`));
  });
  // prependListener: our scan sees each chunk before the decoder's listener can keep it.
  stream.prependListener("data", (chunk: Buffer) => {
    scan(chunk);
  });
}

/** A Connector class for ioredis whose every stream is guarded by `limits`. */
export function guardedConnector(limits: ReplyLimits): NonNullable<RedisOptions["Connector"]> {
  class GuardedConnector extends AbstractConnector {
    private readonly options: NodeOptions;

    constructor(options: unknown) {
      super((options as { disconnectTimeout?: number }).disconnectTimeout ?? 2000);
      this.options = options as NodeOptions;
    }

    connect(): Promise<Socket | TLSSocket> {
      const { host, port, family, tls } = this.options;
      this.connecting = true;
      // The next tick, as ioredis's own connector does: it subscribes to the stream first.
      return new Promise((resolve, reject) => {
        process.nextTick(() => {
          if (!this.connecting) {
            reject(new Error("Connection is closed."));
            return;
          }
          try {
            const where = { host: host ?? "127.0.0.1", port: port ?? 6379 };
            const stream = tls
              ? tlsConnect({ ...where, ...tls })
              : createConnection({ ...where, ...(family !== undefined ? { family } : {}) });
            this.stream = stream;
            stream.once("error", (err) => {
              this.firstError = err;
            });
            guard(stream, limits);
            resolve(stream);
          } catch (err) {
            reject(err);
          }
        });
      });
    }
  }
  return GuardedConnector;
}
