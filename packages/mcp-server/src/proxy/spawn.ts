// The one place in the libraries that starts a process: the MCP server the proxy wraps. Contract:
// the child gets piped stdin/stdout (the MCP channel) and a piped stderr that the caller drains
// (see stderr.ts: never inherited, so a host that does not read our stderr cannot block the child
// on it, nor us); it leads a process group of its own, so `kill` and `stop` reach everything it
// started (an `sh -c` grandchild too). `stop` ends the group with bounded escalation: stdin EOF,
// then SIGTERM after `termAfterMs`, then SIGKILL after `killAfterMs`, and once the child is gone
// any member of its group still running is killed. A spawn failure (no such command) settles
// `exited` with code 127 and a message instead of throwing; `kill` and `stop` never throw.
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

export interface WrappedExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}

export interface WrappedServer {
  stdin: Writable;
  stdout: Readable;
  /** The child's stderr: read it (relayStderr), or the child may block on a full pipe. */
  stderr: Readable;
  pid: number | undefined;
  /** Settles once with the child's exit (or 127 and a message when it never started). */
  exited: Promise<WrappedExit>;
  /** Signal the child's whole process group. */
  kill(signal?: NodeJS.Signals): void;
  /**
   * End the child and its group: EOF on stdin (unless `signal` is given, which is sent first),
   * SIGTERM after `termAfterMs`, SIGKILL after `killAfterMs` more. Resolves with the exit.
   */
  stop(opts?: { signal?: NodeJS.Signals; termAfterMs?: number; killAfterMs?: number }): Promise<WrappedExit>;
}

export interface SpawnWrappedOptions {
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

const wait = (ms: number) => new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms).unref());

export function spawnWrapped(options: SpawnWrappedOptions): WrappedServer {
  const child = spawn(options.command, [...options.args], {
    stdio: ["pipe", "pipe", "pipe"],
    // A group of its own (pgid = its pid): signals to -pid reach its children as well.
    detached: process.platform !== "win32",
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let done = false;
  const exited = new Promise<WrappedExit>((resolve) => {
    child.once("error", (err) => {
      done = true;
      resolve({ code: 127, signal: null, error: err.message });
    });
    child.once("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  // A child that dies leaves EPIPE on its stdin; the relay learns of it from `exited`/stdout end.
  child.stdin.on("error", () => {});
  const signalGroup = (signal: NodeJS.Signals): void => {
    const pid = child.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === "win32") child.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  // Whatever the child left running in its group goes with it.
  void exited.then(() => signalGroup("SIGKILL"));
  let stopping: Promise<WrappedExit> | undefined;
  return {
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    pid: child.pid,
    exited,
    kill(signal = "SIGTERM") {
      if (!done) signalGroup(signal);
    },
    stop(opts = {}) {
      stopping ??= (async () => {
        if (opts.signal) signalGroup(opts.signal);
        else
          try {
            child.stdin.end();
          } catch {
            // Already closed.
          }
        if ((await Promise.race([exited, wait(opts.termAfterMs ?? 2000)])) !== "timeout") return exited;
        signalGroup("SIGTERM");
        if ((await Promise.race([exited, wait(opts.killAfterMs ?? 2000)])) !== "timeout") return exited;
        signalGroup("SIGKILL");
        return exited;
      })();
      return stopping;
    },
  };
}
