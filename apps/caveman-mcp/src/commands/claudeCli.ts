// Claude Code's own plugin commands, run as a child process: `claude plugin marketplace add`,
// `claude plugin install`, `uninstall`, `list`. Contract: `claude` is looked up on the PATH of the
// environment the binary was started with; every run is bounded (2 minutes) and its output is
// returned, never thrown; `pluginCommands()` says whether this `claude` has them at all (older
// versions do not, and install then writes the settings files itself).
import { spawnSync } from "node:child_process";
import type { Environment } from "../config/env.js";

interface CliRun {
  ok: boolean;
  /** The command as a person would type it. */
  line: string;
  output: string;
}

export interface ClaudeCli {
  /** null when `claude` is missing or has no plugin commands, else its version line. */
  pluginCommands(): string | null;
  run(args: readonly string[]): CliRun;
}

export function claudeCli(env: Environment): ClaudeCli {
  const exec = (args: readonly string[]) =>
    spawnSync("claude", args, {
      env: { ...env },
      encoding: "utf8",
      timeout: 120_000,
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 8 * 1024 * 1024,
    });
  return {
    pluginCommands() {
      const help = exec(["plugin", "--help"]);
      if (help.error || help.status !== 0 || !/marketplace/.test(help.stdout)) return null;
      const v = exec(["--version"]);
      return v.status === 0 ? v.stdout.trim() : "claude";
    },
    run(args) {
      const r = exec(args);
      return {
        ok: !r.error && r.status === 0,
        line: ["claude", ...args].join(" "),
        output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? r.error.message : ""}`.trim(),
      };
    },
  };
}
