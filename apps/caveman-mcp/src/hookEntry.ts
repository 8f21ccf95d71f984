// `caveman-mcp hook claude-code|gemini`: one host hook call. Contract: fail open, always — exit 0,
// and stdout is either empty (the host keeps its original output) or one complete JSON object,
// and the process is done within the time budget (counted from process start). The event is read
// and decided here with cheap checks (`@caveman/hooks/gate`: tool, size, off switch, raw marker,
// our own tools, events we do not handle), so a pass loads neither the engine, the tokenizer nor
// SQLite. Only an event that may shrink goes to the full path (commands/hook.ts): to a running
// server of this build when one listens (hookService.ts, where the engine is loaded already),
// else in a worker thread of its own. At the deadline this thread answers with an empty stdout
// and leaves, whatever the server or that thread is doing. stdin may not pause for longer than `stdinTimeoutMs`: stdin that stalls, a
// store held by another process or a slow output all end in an empty stdout.
import { connect } from "node:net";
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { gate } from "@caveman/hooks/gate";
import type { Command } from "./args.js";
import type { HookAnswer } from "./commands/hook.js";
import { type Io, writeOut } from "./commands/io.js";
import type { Config } from "./config.js";
import { ACK, frame, hookSocketPath, MAX_MESSAGE_BYTES, messageReader, trustedSocket } from "./hookSocket.js";
import { VERSION } from "./version.js";

/** What the worker thread gets (structured-cloned): the gated event and everything to decide it. */
export interface HookJob {
  command: Extract<Command, { name: "hook" }>;
  config: Config;
  text: string;
  deadline: number;
  argv: string[];
  /** The binary's script (the main thread's argv[1]): a worker's own argv[1] names hook-worker.js. */
  script: string;
}

/**
 * stdin as text, or null when it stalls (no data for `idleMs`), does not end by `deadline`,
 * exceeds `maxBytes` or fails. A host writes the event at once, so a pause is a stall, while a
 * large event that keeps flowing may take its time.
 */
function readStdin(
  stdin: Readable,
  opts: { deadline: number; idleMs: number; maxBytes: number },
): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const finish = (value: string | null) => {
      clearTimeout(total);
      clearTimeout(idle);
      stdin.off("data", onData);
      stdin.pause();
      resolve(value);
    };
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish(null), opts.idleMs);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > opts.maxBytes) finish(null);
      else {
        chunks.push(c);
        arm();
      }
    };
    const total = setTimeout(() => finish(null), Math.max(0, opts.deadline - Date.now()));
    arm();
    stdin.on("data", onData);
    stdin.once("end", () => finish(Buffer.concat(chunks).toString("utf8")));
    stdin.once("error", () => finish(null));
  });
}

/**
 * The full path in a worker thread, bounded by the deadline: its answer is printed if it comes in
 * time; at the deadline the reason is `deadline` (or the answer's, when it was printed already and
 * only the worker's clean-up is left) and the worker is ended.
 */
function inWorker(job: HookJob, io: Io): Promise<string> {
  return new Promise((resolve) => {
    let answer: HookAnswer | undefined;
    let settled = false;
    let worker: Worker | undefined;
    const done = (reason: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker?.terminate();
      resolve(reason);
    };
    const timer = setTimeout(
      () => done(answer?.reason ?? "deadline"),
      Math.max(0, job.deadline - Date.now()),
    );
    try {
      worker = new Worker(new URL("./hook-worker.js", import.meta.url), { workerData: job });
    } catch (err) {
      done(`internal_error: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    worker.once("message", (a: HookAnswer) => {
      if (Date.now() > job.deadline) return done("deadline");
      answer = a;
      if (a.stdout !== "") void writeOut(io, a.stdout);
    });
    worker.once("error", (err) => done(`internal_error: ${err.message}`));
    worker.once("exit", (code) => done(answer?.reason ?? `internal_error: hook worker exited with ${code}`));
  });
}

/** How long a server may take to say it holds the job before the hook does the work itself. */
const ACK_MS = 1000;

/**
 * The job handed to a running server of this build (hookService.ts), where the engine is loaded
 * already: its answer is printed if it comes in time. Null, and nothing printed, when no server
 * listens, the socket is not this user's own, the job is too large to send, the server does not
 * acknowledge it within ACK_MS (wedged, or gone), or the connection ends without an answer: the
 * caller then runs the job in its own worker, in the time left.
 */
function viaService(job: HookJob, io: Io, path: string): Promise<string | null> {
  if (!trustedSocket(path)) return Promise.resolve(null);
  let message: Buffer;
  try {
    // process.env is a host object v8 will not serialize: the server gets a plain copy of it.
    const { hooks } = job.config;
    message = frame({ ...job, config: { ...job.config, hooks: { ...hooks, env: { ...hooks.env } } } });
  } catch {
    return Promise.resolve(null);
  }
  if (message.length - 4 > MAX_MESSAGE_BYTES) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    let acked = false;
    const reader = messageReader(MAX_MESSAGE_BYTES);
    const sock = connect(path);
    const finish = (reason: string | null, stdout = "") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(ack);
      sock.destroy();
      if (stdout === "") resolve(reason);
      else void writeOut(io, stdout).then(() => resolve(reason));
    };
    const timer = setTimeout(() => finish("deadline"), Math.max(0, job.deadline - Date.now()));
    // From the start of the write, not its end: a server that never reads (its loop wedged) never
    // takes in a job larger than the socket's buffers, so the write would never end and the hook
    // would wait out its whole budget.
    const ack = setTimeout(() => finish(null), ACK_MS);
    sock.once("error", () => finish(null));
    sock.once("close", () => finish(null));
    sock.on("data", (chunk: Buffer) => {
      let got: unknown[];
      try {
        got = reader.push(chunk);
      } catch {
        return finish(null);
      }
      for (const m of got) {
        if (!acked) {
          if (m !== ACK) return finish(null);
          acked = true;
          clearTimeout(ack);
          continue;
        }
        const a = m as HookAnswer;
        if (typeof a?.stdout !== "string" || typeof a.reason !== "string") return finish(null);
        if (Date.now() > job.deadline) return finish("deadline");
        return finish(a.reason, a.stdout);
      }
    });
    sock.write(message);
  });
}

/** When this process started, in `Date.now()` time: the budget counts from there. */
function processStart(): number {
  return Date.now() - Math.round(process.uptime() * 1000);
}

/**
 * What the decision leaves of the budget for stdout to drain and the process to exit: a tenth,
 * at most 200 ms. The hook decides by the budget less this, so decide, flush and exit fit in it.
 */
function exitMarginMs(budgetMs: number): number {
  return Math.min(200, Math.floor(budgetMs / 10));
}

/**
 * How long the exit may still wait for stdout to drain: what is left of the hook's budget, but
 * never less than 50 ms. An answer goes out only before the deadline, so it normally has the whole
 * margin; the floor is for a loop that lagged, since an answer cut off mid-write is worse for
 * the host than one a little late (and stdout that drained ends the wait at once, cli.ts).
 */
export function hookDrainBoundMs(budgetMs: number): number {
  return Math.max(50, processStart() + budgetMs - Date.now());
}

export async function runHookCommand(
  command: Extract<Command, { name: "hook" }>,
  config: Config,
  io: Io,
  stdin: Readable,
): Promise<number> {
  const settings = config.hooks.settings;
  const deadline = processStart() + settings.budgetMs - exitMarginMs(settings.budgetMs);
  let reason = "internal_error";
  try {
    // Read (within the same limits) even when the hooks are off: a host is not cut off mid-write.
    const text = await readStdin(stdin, {
      deadline,
      idleMs: settings.stdinTimeoutMs,
      // JSON escaping can double an output's size; anything larger would not be compressed anyway.
      maxBytes: settings.maxInputBytes * 2 + 1024 * 1024,
    });
    if (config.hooks.settingsError) {
      reason = `settings_invalid: ${config.hooks.settingsError}`;
    } else if (!settings.enabled) {
      reason = "disabled";
    } else if (text === null) {
      reason = "stdin_unfinished";
    } else {
      const verdict = gate(text, settings);
      if (verdict.act) {
        const job = {
          command,
          config,
          text,
          deadline,
          argv: process.argv.slice(2),
          script: process.argv[1] ?? "",
        };
        const path = hookSocketPath(config.hooks.cavemanHome, VERSION);
        reason = (path ? await viaService(job, io, path) : null) ?? (await inWorker(job, io));
      } else reason = verdict.reason;
    }
  } catch (err) {
    reason = `internal_error: ${err instanceof Error ? err.message : String(err)}`;
  }
  // Claude Code keeps a hook's stderr for its debug log; Gemini CLI shows it to the user as a
  // system message after every call, so there the hook stays silent (doctor explains instead).
  if (command.host === "claude-code") {
    try {
      io.stderr.write(
        `caveman-mcp hook claude-code: ${reason === "compressed" ? "compressed" : `passed (${reason})`}\n`,
      );
    } catch {
      // stderr closed: nothing to tell.
    }
  }
  return 0;
}
