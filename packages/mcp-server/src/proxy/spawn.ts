// The one place in the libraries that starts a process: the MCP server the proxy wraps. Contract:
// the child gets piped stdin/stdout (the MCP channel) and our stderr (its diagnostics stay the
// user's); a spawn failure (no such command) settles `exited` with code 127 and a message instead of
// throwing; `kill` never throws. Nothing else here: the relay works on plain streams.
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export interface WrappedServer {
  stdin: Writable;
  stdout: Readable;
  pid: number | undefined;
  /** Settles once with the child's exit (or 127 and a message when it never started). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: string }>;
  kill(signal?: NodeJS.Signals): void;
}

export interface SpawnWrappedOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function spawnWrapped(options: SpawnWrappedOptions): WrappedServer {
  const child = spawn(options.command, [...options.args], {
    stdio: ["pipe", "pipe", "inherit"],
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: string }>(
    (resolve) => {
      child.once("error", (err) => resolve({ code: 127, signal: null, error: err.message }));
      child.once("exit", (code, signal) => resolve({ code, signal }));
    },
  );
  // A child that dies leaves EPIPE on its stdin; the relay learns of it from `exited`/stdout end.
  child.stdin.on("error", () => {});
  return {
    stdin: child.stdin,
    stdout: child.stdout,
    pid: child.pid,
    exited,
    kill(signal = "SIGTERM") {
      try {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      } catch {
        // Already gone.
      }
    },
  };
}
