// Where the server's hook service listens and how one message crosses its socket; shared by the
// service (hookService.ts) and the hook that uses it (hookEntry.ts). Contract: the socket is
// `<CAVEMAN_HOME>/run/hook-<version>.sock` (a hook only ever talks to a server of its own build),
// in a directory that is this user's own and closed to everyone else; a message is a 4-byte
// big-endian length and a v8-serialized value (the structured clone a worker thread gets, so a
// job crosses the socket exactly as it crosses into the hook's own worker). The hook sends its
// job; the server answers ACK as soon as it holds the whole job, then the HookAnswer. Node built-ins only:
// the hook loads this before it knows whether it will do anything.
import { lstatSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";

/**
 * Largest message either side accepts. A job holds the event (default cap 2 × 8 MiB + 1 MiB); a
 * larger one is decided by the hook's own worker, so the server never holds more than this per
 * connection.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A unix socket path longer than this does not bind on Linux (108) or macOS (104). */
const MAX_PATH_BYTES = 100;

/** The socket path, or undefined where the service does not run (Windows, a path too long to bind). */
export function hookSocketPath(cavemanHome: string, version: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const path = join(cavemanHome, "run", `hook-${version.replace(/[^\w.-]/g, "_")}.sock`);
  return Buffer.byteLength(path) <= MAX_PATH_BYTES ? path : undefined;
}

/** True when `path` is a socket owned by this user in a directory of ours no one else may enter. */
export function trustedSocket(path: string): boolean {
  const uid = process.getuid?.();
  try {
    const sock = lstatSync(path);
    const dir = lstatSync(join(path, ".."));
    return (
      sock.isSocket() &&
      dir.isDirectory() &&
      (uid === undefined || (sock.uid === uid && dir.uid === uid)) &&
      (dir.mode & 0o077) === 0
    );
  } catch {
    return false;
  }
}

/** What the service says first, once it holds the whole job (a wedged server never says it). */
export const ACK = "caveman-hook-ack";

/**
 * Who holds the socket: `live` accepts a connection, `dead` refuses one (a server that ended left
 * it), `silent` does neither within half a second (a server too wedged to accept).
 */
export function probeSocket(path: string): Promise<"live" | "dead" | "silent"> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (state: "live" | "dead" | "silent") => {
      s.destroy();
      resolve(state);
    };
    s.setTimeout(500, () => done("silent"));
    s.once("connect", () => done("live"));
    s.once("error", () => done("dead"));
  });
}

/** One message as it goes on the wire. */
export function frame(value: unknown): Buffer {
  const body = serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

/**
 * Reads messages from chunks as they come: `push` returns the messages it completed (none while
 * more is needed), and throws on a length over `maxBytes` (before reading that much) or a body
 * that does not deserialize.
 */
export function messageReader(maxBytes: number): { push(chunk: Buffer): unknown[] } {
  let chunks: Buffer[] = [];
  let have = 0;
  let size = -1;
  return {
    push(chunk) {
      chunks.push(chunk);
      have += chunk.length;
      const out: unknown[] = [];
      for (;;) {
        if (size < 0) {
          if (have < 4) return out;
          const head = Buffer.concat(chunks);
          chunks = [head];
          size = head.readUInt32BE(0);
          if (size > maxBytes) throw new Error(`message of ${size} bytes is over ${maxBytes}`);
        }
        if (have < 4 + size) return out;
        const all = Buffer.concat(chunks);
        out.push(deserialize(all.subarray(4, 4 + size)));
        const rest = all.subarray(4 + size);
        chunks = rest.length > 0 ? [rest] : [];
        have = rest.length;
        size = -1;
      }
    },
  };
}
