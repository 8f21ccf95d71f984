// Starts the resolved server and becomes its shadow: async spawn with inherited stdio (the
// launcher never reads stdin nor writes stdout, so the MCP stream is the child's alone),
// SIGINT/SIGTERM/SIGHUP forwarded so the server is never orphaned, and the child's end
// mirrored: its exit code, or death by the same signal (a signal is never reported as 0).
// Spawn failures map to the shell's convention: 127 not found, 126 found but not runnable.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { printable } from "./diagnostics.js";
import { LauncherError } from "./errors.js";
import { OVERRIDE_ENV } from "./layout.js";
import type { LaunchPlan } from "./resolve.js";

/** How the server ended: an exit code, or the signal that killed it. */
export type ChildEnd =
  | { readonly kind: "exit"; readonly code: number }
  | { readonly kind: "signal"; readonly signal: NodeJS.Signals }
  | { readonly kind: "spawn-error"; readonly code: 126 | 127; readonly error: LauncherError };

/** Signals passed on to the child. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export interface RunOptions {
  /** The user's own arguments, appended after the plan's. */
  readonly args: readonly string[];
  /** Base environment (process.env in production); the plan's variables are added. */
  readonly env: NodeJS.ProcessEnv;
  /** Source of the forwarded signals (process in production). */
  readonly signals?: Pick<NodeJS.Process, "on" | "off">;
}

/** Spawn the plan and resolve when the child has ended, forwarding signals meanwhile. */
export function runPlan(plan: LaunchPlan, options: RunOptions): Promise<ChildEnd> {
  const signals = options.signals ?? process;
  return new Promise((resolve) => {
    const child = spawn(plan.command, [...plan.args, ...options.args], {
      stdio: "inherit",
      env: { ...options.env, ...plan.env },
      windowsHide: true,
    });
    const forward = (signal: NodeJS.Signals): void => {
      // The child may already be gone; kill() then returns false, which is fine.
      child.kill(signal);
    };
    const settle = (end: ChildEnd): void => {
      for (const s of FORWARDED_SIGNALS) signals.off(s, forward);
      resolve(end);
    };
    for (const s of FORWARDED_SIGNALS) signals.on(s, forward);
    let done = false;
    child.once("error", (err: NodeJS.ErrnoException) => {
      if (done) return;
      done = true;
      const code = err.code === "ENOENT" ? 127 : 126;
      // A bad override is the user's own setting: name it, so the fix is obvious.
      const from = plan.via === "override" ? ` (from ${OVERRIDE_ENV}; point it at a runnable server)` : "";
      const error = new LauncherError(
        "launcher_spawn_failed",
        `cannot run ${plan.command}${from}: ${err.message}`,
        { cause: err },
      );
      settle({ kind: "spawn-error", code, error });
    });
    child.once("exit", (code, signal) => {
      if (done) return;
      done = true;
      settle(signal !== null ? { kind: "signal", signal } : { kind: "exit", code: code ?? 1 });
    });
  });
}

/** The conventional exit status for a death by signal (128 + its number). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * End this process the way the child ended. For a signal, with no handler left the default
 * action kills us by that same signal, so our parent sees what it would have seen had it
 * started the server itself; 128+n is the fallback where that cannot happen (Windows).
 */
export function mirrorEnd(end: ChildEnd, write: (text: string) => void): void {
  if (end.kind === "exit") {
    process.exit(end.code);
  }
  if (end.kind === "spawn-error") {
    write(`caveman-mcp: ${printable(end.error.message)}\n`);
    process.exit(end.code);
  }
  // Node keeps some signals for itself: SIGUSR1 would open its inspector on 127.0.0.1:9229
  // and SIGPIPE is ignored, so sending those to ourselves mirrors nothing and the first
  // exposes a debugger. For them (and on Windows) the 128+n status is the honest answer.
  if (process.platform === "win32" || !SELF_DEADLY.has(end.signal)) {
    process.exit(signalExitCode(end.signal));
  }
  process.kill(process.pid, end.signal);
  setTimeout(() => process.exit(signalExitCode(end.signal)), 1000);
}

/** Signals whose default action ends a Node process that has no listener for them. */
const SELF_DEADLY: ReadonlySet<string> = new Set([
  "SIGHUP",
  "SIGINT",
  "SIGQUIT",
  "SIGILL",
  "SIGTRAP",
  "SIGABRT",
  "SIGBUS",
  "SIGFPE",
  "SIGKILL",
  "SIGUSR2",
  "SIGSEGV",
  "SIGALRM",
  "SIGTERM",
  "SIGXCPU",
  "SIGXFSZ",
  "SIGVTALRM",
  "SIGPROF",
  "SIGSYS",
]);
