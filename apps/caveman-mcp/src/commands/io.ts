// The streams a subcommand writes to, injected so commands stay testable in-process.
import type { Writable } from "node:stream";

export interface Io {
  stdout: Writable;
  stderr: Writable;
}

/** Write and wait until the stream has taken it (a big `retrieve` must reach a pipe before exit). */
export function writeOut(io: Io, text: string): Promise<void> {
  return new Promise((resolve) => {
    io.stdout.write(text, () => resolve());
  });
}
