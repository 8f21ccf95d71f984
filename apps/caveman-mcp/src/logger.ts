// The stderr logger of the binary. Contract: one line per message, prefixed with the program
// name; stderr write failures are swallowed (a closed stderr must not take the server down).
import type { Writable } from "node:stream";
import type { Logger } from "@caveman/mcp-server";

export function stderrLogger(stream: Writable): Logger {
  const write = (level: string, message: string) => {
    try {
      stream.write(`caveman-mcp: ${level}${message.replace(/\n(?!$)/g, "\n  ")}\n`);
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
