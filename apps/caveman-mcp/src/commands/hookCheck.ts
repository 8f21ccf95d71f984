// The hook part of `doctor`: end to end in this process, that the hook compresses a sample and
// prints a shape that host accepts, and that the original comes back from the store byte-exact;
// then whether a running server takes hook jobs (the warm path), failing on a socket hooks would
// not trust.
// Contract: the samples go to a temporary SQLite store (the same driver and binding as the
// configured one), removed afterwards — the user's real store never gets doctor's entries.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type CcrStore, originalText } from "@caveman/ccr-store";
import { claudeCodeShapeProblem, type HookContext, type HookHost, runHook } from "@caveman/hooks";
import { parseKeptHeader } from "@caveman/keep";
import type { Config } from "../config.js";
import { hookSocketPath, probeSocket, trustedSocket } from "../hookSocket.js";
import { VERSION } from "../version.js";
import { hookContext, openHookStore } from "./hook.js";

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

function sampleEvent(host: HookHost, log: string, transcript: string): string {
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
          transcript_path: transcript,
          tool_name: "run_shell_command",
          tool_input: { command: "cat /var/log/doctor.log" },
          // As Gemini CLI hands it over: the shell output inside its untrusted wrapper.
          tool_response: {
            llmContent: `<untrusted_context>\n${log}\n</untrusted_context>`,
            returnDisplay: "",
          },
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
    const tail = h.tailToolCallRequest as { name?: unknown; args?: { file_path?: unknown } } | undefined;
    if (
      h.hookEventName !== "AfterTool" ||
      tail?.name !== "read_file" ||
      typeof tail.args?.file_path !== "string"
    )
      return "no tailToolCallRequest of read_file";
    try {
      text = readFileSync(tail.args.file_path, "utf8");
    } catch {
      return "the stand-in file is missing";
    }
    // The header (the way back) must be outside Gemini's untrusted wrapper: first, and not inside.
    const wrapped = text.indexOf("<untrusted_context>");
    if (wrapped >= 0 && text.slice(wrapped).includes("recovery_handle"))
      return "the recovery note is inside the untrusted wrapper";
  }
  if (!text.includes("disk quota exceeded")) return "the error line of the sample is not visible";
  const handle = parseKeptHeader(text.split("\n")[0] ?? "")?.handle;
  const rec = handle ? store.get(handle) : null;
  if (!rec || originalText(rec) !== log) return "the original does not come back from the store byte-exact";
  return null;
}

export async function hookChecks(config: Config): Promise<Check[]> {
  const checks: Check[] = [];
  checks.push({
    ok: config.hooks.settingsError === undefined,
    what: "hook settings",
    detail:
      config.hooks.settingsError !== undefined
        ? `${config.hooks.settingsError}; hooks pass everything until it is fixed; fix: correct or remove ${config.hooks.file}`
        : `${config.hooks.file}${config.hooks.fileFound ? "" : " (absent: defaults)"}; ${config.hooks.settings.enabled ? "on" : "OFF"}, floor ${config.hooks.settings.floorTokens} tokens, budget ${config.hooks.settings.budgetMs} ms`,
  });
  for (const host of ["claude-code", "gemini"] as const) {
    if (config.store.kind !== "sqlite") {
      // A hook runs in a process of its own: it can only hand the server originals through a file.
      // Asked for (--ephemeral): a hook, a process of its own, uses the SQLite store of its own config.
      checks.push({
        ok: true,
        what: `${host} hook`,
        detail: "not run: this store is in memory (--ephemeral), which a hook process cannot share",
      });
      continue;
    }
    const log = sampleLog();
    let store: CcrStore | undefined;
    const deadline = Date.now() + 10_000;
    const scratch = mkdtempSync(join(tmpdir(), "caveman-doctor-"));
    const sampleConfig: Config = { ...config, store: { kind: "sqlite", path: join(scratch, "ccr.db") } };
    // A Gemini project temp directory of its own, like ~/.gemini/tmp/<project>/chats/.
    const tempRoot = join(scratch, "gemini-tmp");
    mkdirSync(join(tempRoot, "doctor", "chats"), { recursive: true });
    try {
      const open = () => {
        store ??= openHookStore(sampleConfig, deadline);
        return store;
      };
      // No journal: doctor's samples are not savings.
      const ctx: HookContext = {
        ...hookContext(sampleConfig, deadline, open),
        settings: { ...config.hooks.settings, enabled: true },
        persistRoots: [],
      };
      const run = await runHook(
        host,
        sampleEvent(host, log, join(tempRoot, "doctor", "chats", "s.jsonl")),
        ctx,
        {
          tempRoot,
        },
      );
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
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  checks.push(await serviceCheck(config));
  return checks;
}

/** The warm path: is a server of this build taking hook jobs, and would a hook trust it? */
async function serviceCheck(config: Config): Promise<Check> {
  const what = "hook service";
  const path = hookSocketPath(config.hooks.cavemanHome, VERSION);
  if (!path) return { ok: true, what, detail: "not on this platform or path: hooks do their own work" };
  if (!existsSync(path))
    return { ok: true, what, detail: `no server of this build running (${path}): hooks do their own work` };
  if (!trustedSocket(path))
    return {
      ok: false,
      what,
      detail: `${path} is not a socket of this user's in a directory only this user may enter: hooks ignore it; fix: chmod 700 ${dirname(path)}, or remove ${path}`,
    };
  const state = await probeSocket(path);
  if (state === "live")
    return { ok: true, what, detail: `a server of this build takes hook jobs at ${path}` };
  if (state === "dead")
    return {
      ok: true,
      what,
      detail: `${path} is left by a server that ended: hooks do their own work; the next server replaces it`,
    };
  return {
    ok: false,
    what,
    detail: `the server at ${path} does not accept connections: each hook waits up to 1 s before doing its own work; fix: restart that server (its MCP host)`,
  };
}
