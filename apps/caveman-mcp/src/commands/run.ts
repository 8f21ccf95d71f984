// `caveman-mcp run [--stream-after-ms N] -- COMMAND [ARGS]`: run one command the way the host
// would, and print its output — or, when the output is large, its stand-in, with the exact
// capture kept behind the handle. Claude Code's PreToolUse hook puts Bash commands under it
// (`@caveman/hooks` wrap.ts), because a command that fails never reaches PostToolUse. Contract:
// - The command gets this process's stdin, working directory and environment; its stdout and
//   stderr go into one pipe (`2>&1`, as the host merges them), so the capture holds both streams
//   in the order they were written, byte for byte, untrimmed.
// - Exit status as the command's: its code; killed by a signal, this process re-raises that
//   signal (and exits 128+n if it survives it). SIGINT, SIGTERM and SIGHUP sent here are passed on
//   to the command and the processes below it in its process group, as a terminal's ^C would be.
// - Below the floor, not UTF-8, not worth compressing, or with any fault (settings, store,
//   engine, time), the capture is printed unchanged; a store fault or an internal error is named
//   in one line on stderr after it. Compression is bounded by the hooks' time budget, counted from
//   the command's end.
// - Never held hostage: past `--stream-after-ms` (half the host's timeout, from the hook), beyond
//   `max_input_bytes`, or once a signal arrives, what was captured is printed and the rest streams
//   through as it comes, unchanged, at the caller's pace (the command's pipe pauses while more
//   than QUEUE_HIGH waits for the caller). A caller gone (EPIPE) costs no exit status. A
//   background job that keeps the pipe open after the command exited is given a short grace, then
//   left.
import { spawn, spawnSync } from "node:child_process";
import { constants } from "node:os";
import { keepCommandOutput } from "@caveman/hooks";
import type { Config } from "../config.js";
import { withHookContext } from "./hook.js";
import type { Io } from "./io.js";

export interface RunCommand {
  name: "run";
  argv: string[];
  streamAfterMs?: number;
}

/** How long the pipe may stay open after the command exited (a background job holding it). */
const CLOSE_GRACE_MS = 1500;
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** Most streamed bytes held for a caller that reads slower than the command writes. */
const QUEUE_HIGH = 1 << 20;

function write(io: Io, data: Buffer | string, to: "stdout" | "stderr" = "stdout"): Promise<void> {
  return new Promise((resolve) => {
    try {
      io[to].write(data, () => resolve());
    } catch {
      resolve();
    }
  });
}

/** The command as the model wrote it (`SHELL -c CMD` → CMD), for the hint and the producer. */
function original(argv: string[]): string {
  return argv.length === 3 && argv[1] === "-c" ? argv[2]! : argv.join(" ");
}

interface Capture {
  chunks: Buffer[];
  streamed: boolean;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The command and every process below it in its process group (the wrapper's own: the command is
 * not detached), parents first. A terminal's ^C reaches that whole foreground group; a host that
 * signals the wrapper alone must get the same, or a shell waits its running child out and goes on
 * with the script. Parents first, because bash goes on after a child died of SIGINT unless it had
 * the SIGINT itself before. A descendant that made a group of its own is left alone, as a terminal
 * would leave it; without `ps` only the command itself is signalled.
 */
function foregroundTree(root: number): number[] {
  const ps = spawnSync("ps", ["-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid="], {
    encoding: "utf8",
    timeout: 2000,
  });
  if (ps.status !== 0 || typeof ps.stdout !== "string") return [root];
  const kids = new Map<number, number[]>();
  const group = new Map<number, number>();
  for (const line of ps.stdout.split("\n")) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (!pid || ppid === undefined || pgid === undefined) continue;
    group.set(pid, pgid);
    kids.set(ppid, [...(kids.get(ppid) ?? []), pid]);
  }
  const pgid = group.get(root);
  const order: number[] = [];
  const visit = (pid: number) => {
    order.push(pid);
    for (const kid of kids.get(pid) ?? []) if (group.get(kid) === pgid) visit(kid);
  };
  visit(root);
  return order;
}

function capture(
  argv: string[],
  io: Io,
  streamAfterMs: number | undefined,
  maxBytes: number,
): Promise<Capture> {
  return new Promise((resolve) => {
    const out: Capture = { chunks: [], streamed: false, code: null, signal: null };
    let size = 0;
    let pending: Promise<void> = Promise.resolve();
    // `exec "$@" 2>&1`: both streams on one pipe, in order, and the shell replaced by the command.
    const child = spawn("/bin/sh", ["-c", 'exec "$@" 2>&1', "sh", ...argv], {
      stdio: ["inherit", "pipe", "ignore"],
    });
    // Streamed bytes not yet taken by the caller: past QUEUE_HIGH the command's pipe is paused, so a
    // slow reader holds the command back (as it would unwrapped) instead of this process's memory
    // growing with the whole output.
    let queued = 0;
    const forward = (data: Buffer) => {
      queued += data.length;
      if (queued > QUEUE_HIGH) child.stdout.pause();
      pending = pending
        .then(() => write(io, data))
        .then(() => {
          queued -= data.length;
          if (queued <= QUEUE_HIGH && !child.stdout.destroyed) child.stdout.resume();
        });
    };
    const stream = () => {
      if (out.streamed) return;
      out.streamed = true;
      const held = Buffer.concat(out.chunks);
      out.chunks = [];
      forward(held);
    };
    let exited = false;
    const timer = streamAfterMs !== undefined ? setTimeout(stream, streamAfterMs) : undefined;
    const onSignal = (sig: NodeJS.Signals) => {
      stream();
      const targets = child.pid !== undefined && !exited ? foregroundTree(child.pid) : [];
      for (const pid of targets) {
        try {
          process.kill(pid, sig);
        } catch {
          // Gone already.
        }
      }
    };
    for (const s of FORWARDED) process.on(s, onSignal);
    child.stdout.on("data", (c: Buffer) => {
      if (out.streamed) {
        forward(c);
        return;
      }
      out.chunks.push(c);
      size += c.length;
      if (size > maxBytes) stream();
    });
    let grace: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(grace);
      for (const s of FORWARDED) process.off(s, onSignal);
      void pending.then(() => resolve(out));
    };
    child.on("exit", (code, signal) => {
      exited = true;
      out.code = code;
      out.signal = signal;
      const leave = () => {
        // While the caller is still taking streamed bytes, what is left in the pipe is the
        // command's own output (read as soon as the pipe is resumed), not a background job's: wait on.
        if (queued > 0 || child.stdout.isPaused()) {
          grace = setTimeout(leave, CLOSE_GRACE_MS);
          return;
        }
        child.stdout.destroy();
        finish();
      };
      grace = setTimeout(leave, CLOSE_GRACE_MS);
    });
    child.stdout.on("close", () => {
      if (exited) finish();
      else child.once("exit", () => finish());
    });
    child.on("error", (err) => {
      out.code = 127;
      out.chunks.push(Buffer.from(`caveman-mcp run: ${err.message}\n`));
      finish();
    });
  });
}

function statusOf(c: Capture): number {
  if (c.signal) return 128 + (constants.signals[c.signal] ?? 0);
  return c.code ?? 1;
}

/** The capture's stand-in, or why it prints as it is. */
async function standIn(
  text: string,
  cmd: string,
  config: Config | undefined,
): Promise<{ text: string } | { pass: string }> {
  if (!config || config.hooks.settingsError) return { pass: "settings" };
  const settings = config.hooks.settings;
  if (!settings.enabled || text.length < settings.floorTokens) return { pass: "below_floor" };
  const deadline = Date.now() + settings.budgetMs;
  // This process's global flags (those before `run`), for the sender of queued originals.
  const at = process.argv.indexOf("run", 2);
  const flags = at < 0 ? [] : process.argv.slice(2, at);
  try {
    const r = await withHookContext(config, deadline, { host: "claude-code" }, flags, (ctx) =>
      keepCommandOutput(text, cmd, ctx),
    );
    if ("pass" in r) return r;
    return Date.now() > deadline ? { pass: "deadline" } : { text: r.text };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    return { pass: `internal_error${typeof code === "string" ? `: ${code}` : ""}` };
  }
}

/**
 * The line told to the caller (on stderr, after the output) when a fault, not a rule, kept the
 * output whole: the output is all there, but the user should know compression is not working.
 */
function faultNote(pass: string): string | null {
  if (pass.startsWith("store_")) {
    // Busy or full passes by itself; anything else is the store's path or disk, which doctor checks.
    const hint =
      pass === "store_busy" || pass === "store_full" ? "" : "; check the store path (caveman-mcp doctor)";
    return `caveman-mcp run: output shown uncompressed: the store could not keep its original (${pass})${hint}\n`;
  }
  if (pass.startsWith("internal_error"))
    return `caveman-mcp run: output shown uncompressed after an internal error (${pass})\n`;
  return null;
}

/** Runs the command; resolves to its exit status (after re-raising its signal, if it had one). */
export async function runWrapped(command: RunCommand, config: Config | undefined, io: Io): Promise<number> {
  if (command.argv.length === 0) {
    io.stderr.write("caveman-mcp run: name the command (caveman-mcp run -- COMMAND [ARGS])\n");
    return 2;
  }
  const maxBytes = config?.hooks.settings.maxInputBytes ?? 8 * 1024 * 1024;
  // A caller that stopped reading (EPIPE) must not turn into a crash that loses the exit status:
  // the write resolves through its callback and the command's status is still returned.
  const ignore = () => {};
  io.stdout.on("error", ignore);
  io.stderr.on("error", ignore);
  const c = await capture(command.argv, io, command.streamAfterMs, maxBytes);
  if (!c.streamed) {
    const bytes = Buffer.concat(c.chunks);
    const text = bytes.toString("utf8");
    // Only text that round-trips is compressed: the handle must give back these very bytes.
    const exact = Buffer.byteLength(text, "utf8") === bytes.length && Buffer.from(text, "utf8").equals(bytes);
    const shown = exact ? await standIn(text, original(command.argv), config) : { pass: "not_utf8" };
    await write(io, "text" in shown ? shown.text : bytes);
    const note = "pass" in shown ? faultNote(shown.pass) : null;
    if (note) await write(io, note, "stderr");
  }
  if (c.signal) {
    // The caller sees the command's own death: the same signal, with its default action.
    process.removeAllListeners(c.signal);
    try {
      process.kill(process.pid, c.signal);
    } catch {
      // Cannot signal ourselves: the status says it.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return statusOf(c);
}

/** `run` when the configuration does not load: the command after `--` runs, its output as it is. */
export function runUnconfigured(argv: string[], io: Io): Promise<number> {
  const dash = argv.indexOf("--");
  return runWrapped({ name: "run", argv: dash >= 0 ? argv.slice(dash + 1) : [] }, undefined, io);
}
