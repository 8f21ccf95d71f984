// The hook part of `doctor`: for each host, whether our entries are installed, and — end to end in
// this process — that the hook compresses a sample with the configured store and prints a shape
// that host accepts, and that the original comes back from the store byte-exact. Contract: only
// the sample's original (and, for Gemini, its stand-in) is written, to the configured store.
import { type CcrStore, originalText } from "@caveman/ccr-store";
import { claudeCodeShapeProblem, type HookContext, type HookHost, runHook } from "@caveman/hooks";
import { parseKeptHeader } from "@caveman/keep/note";
import type { Config } from "../config.js";
import { hookContext, openHookStore } from "./hook.js";
import type { SelfCommand } from "./hostFiles.js";
import { installState } from "./install.js";

export interface Check {
  ok: boolean;
  what: string;
  detail: string;
}

function sampleLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 1500; i++)
    lines.push(
      `2026-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO doctor sample request ${i} served in ${i % 97}ms`,
    );
  lines.splice(700, 0, "2026-01-01T00:11:40Z ERROR doctor sample failure: disk quota exceeded");
  return `${lines.join("\n")}\n`;
}

function sampleEvent(host: HookHost, log: string): string {
  return JSON.stringify(
    host === "claude-code"
      ? {
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: { command: "cat /var/log/doctor.log" },
          tool_response: { stdout: log, stderr: "", interrupted: false },
        }
      : {
          hook_event_name: "AfterTool",
          tool_name: "run_shell_command",
          tool_input: { command: "cat /var/log/doctor.log" },
          tool_response: { llmContent: log, returnDisplay: "" },
        },
  );
}

/** Why the sample run is wrong, or null when the host would accept it and the original is back. */
function verify(host: HookHost, stdout: string, log: string, store: CcrStore): string | null {
  const out = JSON.parse(stdout) as { hookSpecificOutput?: Record<string, unknown> };
  const h = out.hookSpecificOutput ?? {};
  let text: string;
  if (host === "claude-code") {
    if (h.hookEventName !== "PostToolUse") return "hookEventName is not PostToolUse";
    const problem = claudeCodeShapeProblem("Bash", h.updatedToolOutput);
    if (problem) return problem;
    text = (h.updatedToolOutput as { stdout: string }).stdout;
  } else {
    const tail = h.tailToolCallRequest as
      | { name?: unknown; args?: { recovery_handle?: unknown } }
      | undefined;
    if (
      h.hookEventName !== "AfterTool" ||
      typeof tail?.name !== "string" ||
      typeof tail.args?.recovery_handle !== "string"
    )
      return "no tailToolCallRequest of caveman_retrieve";
    const standIn = store.get(tail.args.recovery_handle);
    if (!standIn) return "the stand-in is not in the store";
    text = originalText(standIn) ?? "";
  }
  if (!text.includes("disk quota exceeded")) return "the error line of the sample is not visible";
  const handle = parseKeptHeader(text.split("\n")[0] ?? "")?.handle;
  const rec = handle ? store.get(handle) : null;
  if (!rec || originalText(rec) !== log) return "the original does not come back from the store byte-exact";
  return null;
}

export async function hookChecks(config: Config, self: SelfCommand): Promise<Check[]> {
  const checks: Check[] = [];
  checks.push({
    ok: config.hooks.settingsError === undefined,
    what: "hook settings",
    detail:
      config.hooks.settingsError !== undefined
        ? `${config.hooks.settingsError}; hooks pass everything until it is fixed`
        : `${config.hooks.file}${config.hooks.fileFound ? "" : " (absent: defaults)"}; ${config.hooks.settings.enabled ? "on" : "OFF"}, floor ${config.hooks.settings.floorTokens} tokens, budget ${config.hooks.settings.budgetMs} ms`,
  });
  for (const host of ["claude-code", "gemini"] as const) {
    const state = installState(config, host, self);
    const installed = state.filter((s) => s.installed).map((s) => s.file);
    checks.push({
      ok: true,
      what: `${host} install`,
      detail: installed.length
        ? `registered in ${installed.join(", ")}`
        : `not installed (caveman-mcp install ${host})`,
    });
    if (config.store.kind !== "sqlite") {
      // A hook runs in a process of its own: it can only hand the server originals through a file.
      checks.push({
        ok: installed.length === 0,
        what: `${host} hook`,
        detail: installed.length
          ? "installed, but the store is in memory (--ephemeral): the hook's originals would die with the hook process; run the server with its SQLite store"
          : "not run: the store is in memory (--ephemeral), which a hook process cannot share",
      });
      continue;
    }
    const log = sampleLog();
    let store: CcrStore | undefined;
    const deadline = Date.now() + 10_000;
    try {
      const open = () => {
        store ??= openHookStore(config, deadline);
        return store;
      };
      const ctx: HookContext = {
        ...hookContext(config, deadline, open),
        settings: { ...config.hooks.settings, enabled: true },
        persistRoots: [],
      };
      const run = await runHook(host, sampleEvent(host, log), ctx);
      const problem =
        run.stdout === ""
          ? `the sample passed through (${run.reason})`
          : verify(host, run.stdout, log, open());
      checks.push({
        ok: problem === null,
        what: `${host} hook`,
        detail:
          problem ??
          `a ${log.length}-byte sample log compressed to an accepted shape; original retrieved byte-exact`,
      });
    } catch (err) {
      checks.push({
        ok: false,
        what: `${host} hook`,
        detail: err instanceof Error ? err.message : String(err),
      });
    } finally {
      try {
        store?.close();
      } catch {
        // Already closed.
      }
    }
  }
  return checks;
}
