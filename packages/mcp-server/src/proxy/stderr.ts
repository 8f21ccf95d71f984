// The proxy's stderr, held to the transport's rules: a host that never reads our stderr must not
// freeze us. Node writes to a pipe on fd 2 synchronously, so one full pipe (64 KiB) would block
// the event loop in write(2); `nonBlockingStderr` opens fd 2 as an asynchronous stream when it is
// a pipe or socket (a file or terminal stays as it is), so a writer sees `writableLength` grow and
// can drop. The wrapped server's stderr is always drained (its pipe never fills, so it never
// blocks either) and forwarded within a byte rate and a cap on what waits unwritten; what does
// not fit is counted and said in one line when output flows again.
import { fstatSync } from "node:fs";
import { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";

/** fd 2 as a stream that never blocks the event loop (a pipe or socket), else process.stderr. */
export function nonBlockingStderr(): Writable {
  try {
    const st = fstatSync(2);
    if (st.isFIFO() || st.isSocket()) {
      const socket = new Socket({ fd: 2, readable: false, writable: true });
      socket.on("error", () => undefined);
      return socket;
    }
  } catch {
    // No fd 2 to look at: the default stream is all there is.
  }
  return process.stderr;
}

export interface StderrRelayOptions {
  /** Bytes per second forwarded on average. Default 64 KiB. */
  bytesPerSecond?: number;
  /** Bytes that may wait unwritten in `to` before more is dropped. Default 256 KiB. */
  maxPending?: number;
  clock?: () => number;
}

/** Forward `from` (always read to its end) to `to`, rate-limited and capped; returns the counter. */
export function relayStderr(
  from: Readable,
  to: Writable,
  opts: StderrRelayOptions = {},
): { dropped(): number } {
  const rate = opts.bytesPerSecond ?? 64 * 1024;
  const maxPending = opts.maxPending ?? 256 * 1024;
  const clock = opts.clock ?? Date.now;
  let allowance = rate;
  let last = clock();
  let dropped = 0;
  let droppedTotal = 0;
  const write = (text: string | Buffer) => {
    try {
      to.write(text);
    } catch {
      // stderr closed: nothing to tell.
    }
  };
  from.on("data", (chunk: Buffer) => {
    const t = clock();
    allowance = Math.min(rate * 4, allowance + ((t - last) / 1000) * rate);
    last = t;
    if (chunk.length > allowance || to.writableLength > maxPending) {
      dropped += chunk.length;
      droppedTotal += chunk.length;
      return;
    }
    allowance -= chunk.length;
    if (dropped > 0) {
      write(
        `caveman-mcp: ${dropped} bytes of the wrapped server's stderr dropped (stderr is slow or not read)\n`,
      );
      dropped = 0;
    }
    write(chunk);
  });
  from.on("error", () => undefined);
  return { dropped: () => droppedTotal };
}
