// The stderr logger of the binary. Contract: one line per message, prefixed with the program
// name; stderr write failures are swallowed (a closed stderr must not take the server down);
// while more than MAX_UNWRITTEN bytes wait for a reader that does not read stderr, messages are
// dropped and counted (the next one that fits says how many), so stderr cannot grow memory.
import type { Writable } from "node:stream";
import type { Logger } from "@caveman/mcp-server";

const MAX_UNWRITTEN = 1024 * 1024;

export function stderrLogger(stream: Writable): Logger {
  let dropped = 0;
  const write = (level: string, message: string) => {
    if (stream.writableLength > MAX_UNWRITTEN) {
      dropped++;
      return;
    }
    const note = dropped > 0 ? `(${dropped} message(s) dropped: stderr is not being read) ` : "";
    dropped = 0;
    try {
      stream.write(`caveman-mcp: ${level}${note}${message.replace(/\n(?!$)/g, "\n  ")}\n`);
    } catch {
      // Nowhere left to report to.
    }
  };
  return {
    info: (m) => write("", m),
    warn: (m) => write("warning: ", m),
    error: (m) => write("error: ", m),
  };
}
