// The warm path of host hooks: a server that runs anyway (the plugin's MCP server) answers hook
// jobs on a unix socket, in worker threads that keep the engine and the tokenizer loaded between
// calls. Why: a hook process that loads them itself spends most of its 3 s budget doing so (a CPU
// profile of one 100 KB compress: 1,560 ms in the worker, ~900 ms of it building the o200k
// tables), and at a load of 8 two of three such hooks passed the output through at the deadline.
// Contract: one connection, one job in, one answer out (hookSocket.ts); a job runs exactly as the
// hook's own worker would run it (its config, its deadline, its store); workers start on the
// first job, at most two, and a worker that dies takes only its own jobs with it (their hooks
// fall back to their own worker). The socket is bound only where no live server of this build
// holds it, is this user's alone (mode 0600 in a 0700 directory), and is removed at close if it
// is still ours. Nothing here may stop the server: every failure is logged and the service is off.
import { chmodSync, existsSync, lstatSync, mkdirSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Logger } from "@caveman/mcp-server";
import type { HookAnswer } from "./commands/hook.js";
import type { ServedAnswer } from "./hook-worker.js";
import type { HookJob } from "./hookEntry.js";
import {
  ACK,
  frame,
  hookSocketPath,
  MAX_MESSAGE_BYTES,
  messageReader,
  probeSocket,
  trustedSocket,
} from "./hookSocket.js";

export interface HookService {
  path: string;
  close(): void;
}

/** A connection that has not sent its whole job by then is dropped (a hook writes it at once). */
const READ_MS = 10_000;
/**
 * Connections held at once; more are refused, and their hooks do their own work. With the
 * per-message cap this bounds what slow or idle clients can make the server hold.
 */
const MAX_CONNECTIONS = 32;

/** How long past a job's deadline its worker may go on (loading the engine, say) before it is ended. */
const OVERDUE_MS = 10_000;

interface Slot {
  worker: Worker;
  waiting: Map<number, (a: HookAnswer | undefined) => void>;
  /** Still busy past a job's deadline: given no jobs until it is free again, ended when this fires. */
  overdue: NodeJS.Timeout | undefined;
  /** Terminated by the pool: counted against the limit until it has exited. */
  ending: boolean;
}

/**
 * Up to `max` long-lived hook workers, each started when a job finds the others busy. A worker
 * still busy at a job's deadline gets no more jobs until it is free again (a cold one that was
 * loading the engine then serves warm), and one that is still busy OVERDUE_MS later is ended, as
 * the hook ends its own worker at the deadline: later jobs never queue behind a wedged worker.
 * Both count against `max` (a thread blocked in a system call may never exit), so a job that
 * wedges every worker it is given leaves the pool refusing work rather than growing threads.
 */
function workerPool(workerUrl: URL, max: number, logger: Logger) {
  const slots: Slot[] = [];
  let nextId = 0;
  const drop = (slot: Slot, why: string) => {
    clearTimeout(slot.overdue);
    const i = slots.indexOf(slot);
    if (i < 0) return;
    slots.splice(i, 1);
    for (const done of slot.waiting.values()) done(undefined);
    slot.waiting.clear();
    logger.warn(`hook service: a worker ended (${why})`);
  };
  const end = (slot: Slot, why: string) => {
    if (slot.ending) return;
    slot.ending = true;
    for (const done of slot.waiting.values()) done(undefined);
    slot.waiting.clear();
    logger.warn(`hook service: a worker ended (${why})`);
    void slot.worker.terminate();
  };
  const overdue = (slot: Slot) => {
    if (slot.overdue || slot.ending) return;
    slot.overdue = setTimeout(
      () => end(slot, `still busy ${OVERDUE_MS} ms past a job's deadline`),
      OVERDUE_MS,
    );
    slot.overdue.unref();
  };
  const start = (): Slot => {
    const slot: Slot = {
      worker: new Worker(workerUrl, { workerData: { serve: true } }),
      waiting: new Map(),
      overdue: undefined,
      ending: false,
    };
    slot.worker.unref();
    slot.worker.on("message", (m: ServedAnswer) => {
      slot.waiting.get(m.id)?.(m.answer);
      slot.waiting.delete(m.id);
      if (slot.waiting.size === 0) {
        clearTimeout(slot.overdue);
        slot.overdue = undefined;
      }
    });
    slot.worker.on("error", (err) => drop(slot, err.message));
    slot.worker.on("exit", (code) => drop(slot, `exit ${code}`));
    slots.push(slot);
    return slot;
  };
  return {
    /** The job's answer to come (undefined: its worker ended first), or undefined when refused. */
    run(job: HookJob): Promise<HookAnswer | undefined> | undefined {
      const left = job.deadline - Date.now();
      if (!(left > 0)) return undefined;
      const usable = slots.filter((s) => !s.overdue && !s.ending);
      let slot = usable.find((s) => s.waiting.size === 0);
      try {
        if (!slot && slots.length < max) slot = start();
      } catch (err) {
        logger.warn(`hook service: no worker (${err instanceof Error ? err.message : String(err)})`);
      }
      slot ??=
        usable.length > 0 ? usable.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a)) : undefined;
      if (!slot) return undefined;
      const chosen = slot;
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          if (chosen.waiting.has(id)) overdue(chosen);
        }, left);
        timer.unref();
        chosen.waiting.set(id, (a) => {
          clearTimeout(timer);
          resolve(a);
        });
        try {
          chosen.worker.postMessage({ id, job });
        } catch {
          chosen.waiting.delete(id);
          clearTimeout(timer);
          resolve(undefined);
        }
      });
    },
    close() {
      for (const s of slots.splice(0)) void s.worker.terminate();
    },
  };
}

function serveConnection(
  sock: Socket,
  run: (job: HookJob) => Promise<HookAnswer | undefined> | undefined,
): void {
  const reader = messageReader(MAX_MESSAGE_BYTES);
  // One deadline for the whole job, not an idle timer a byte at a time keeps alive.
  const reading = setTimeout(() => sock.destroy(), READ_MS);
  reading.unref();
  sock.on("close", () => clearTimeout(reading));
  sock.on("error", () => sock.destroy());
  const onData = (chunk: Buffer) => {
    let got: unknown[];
    try {
      got = reader.push(chunk);
    } catch {
      sock.destroy();
      return;
    }
    if (got.length === 0) return;
    sock.off("data", onData);
    clearTimeout(reading);
    const job = got[0] as HookJob;
    if (typeof job?.text !== "string" || typeof job.deadline !== "number" || typeof job.config !== "object") {
      sock.destroy();
      return;
    }
    // Refused before the acknowledgement (no worker free of a wedged job, or no time left): the
    // hook then does the work itself at once.
    const answer = run(job);
    if (!answer) {
      sock.destroy();
      return;
    }
    sock.write(frame(ACK));
    void answer.then((a) => {
      if (a === undefined || sock.destroyed) sock.destroy();
      else sock.end(frame(a));
    });
  };
  sock.on("data", onData);
}

function listen(server: Server, path: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException) => resolve(err);
    server.once("error", onError);
    server.listen(path, () => {
      server.off("error", onError);
      resolve(undefined);
    });
  });
}

/** Starts the service, or gives undefined (logged) where it cannot or need not run. */
export async function startHookService(opts: {
  cavemanHome: string;
  version: string;
  workerUrl: URL;
  logger: Logger;
}): Promise<HookService | undefined> {
  const { logger } = opts;
  const path = hookSocketPath(opts.cavemanHome, opts.version);
  // A bundle without the hook worker (the .mcpb: Claude Desktop runs no hooks) serves none.
  if (!path || !existsSync(fileURLToPath(opts.workerUrl))) return undefined;
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    const pool = workerPool(opts.workerUrl, Math.min(2, availableParallelism()), logger);
    const server = createServer((sock) => serveConnection(sock, (job) => pool.run(job)));
    server.maxConnections = MAX_CONNECTIONS;
    server.unref();
    let err = await listen(server, path);
    if (err?.code === "EADDRINUSE") {
      // Live, or too busy to accept: another server of this build holds it.
      if ((await probeSocket(path)) !== "dead") return undefined;
      // A socket left by a server that died: ours to replace, and only if it is a socket.
      if (lstatSync(path).isSocket()) unlinkSync(path);
      err = await listen(server, path);
    }
    if (err) throw err;
    chmodSync(path, 0o600);
    if (!trustedSocket(path)) {
      server.close();
      throw new Error(`${path} is not private to this user`);
    }
    const ino = lstatSync(path).ino;
    return {
      path,
      close() {
        server.close();
        pool.close();
        try {
          if (lstatSync(path).ino === ino) unlinkSync(path);
        } catch {
          // Gone already, or replaced by another server's: not ours to remove.
        }
      },
    };
  } catch (err) {
    logger.warn(`hook service off: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
