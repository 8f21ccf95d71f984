// `caveman-mcp hook claude-code|gemini`: one host hook call. Contract: fail open, always — exit 0,
// and stdout is either empty (the host keeps its original output) or one complete JSON object.
// Nothing is started after the time budget (counted from process start) runs out, and stdin may not
// pause for longer than `stdinTimeoutMs`: stdin that stalls, a store held by another process or a
// slow output all end in an empty stdout. The store
// is SQLite only (a memory store would hand the model a handle that dies with this process), opened
// only when something is about to be stored, with a busy timeout inside the remaining budget.
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { CcrStore } from "@caveman/ccr-store";
import { type HookContext, runHook } from "@caveman/hooks";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { globalFlags, openQueuedOriginals, startSenderIfNeeded } from "../queued.js";
import { keptRecorder } from "../savings.js";
import { type Io, writeOut } from "./io.js";

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

/** The host's session id in a hook event (`session_id`), read from its start without parsing it all. */
function sessionOf(event: string): string | undefined {
  return /"session_id"\s*:\s*"([\w.:@-]{1,128})"/.exec(event.slice(0, 8192))?.[1];
}

/**
 * How the PreToolUse hook puts a Bash command under `caveman-mcp run`: this very binary (node and
 * script by absolute path), and the shell Claude Code runs commands in (its own override, else the
 * user's shell when bash or zsh, else bash).
 */
function wrapOptions(env: NodeJS.ProcessEnv): { self: string[]; shell: string } {
  const shell = env.CLAUDE_CODE_SHELL || env.SHELL || "";
  return {
    self: [process.execPath, ...(process.argv[1] ? [process.argv[1]] : [])],
    shell: /(?:^|\/)(?:bash|zsh)$/.test(shell) ? shell : "bash",
  };
}

/** The session's MCP result limit, when the host was started with one (Claude Code's own variable). */
function mcpLimit(raw: string | undefined): { mcpLimitTokens?: number } {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? { mcpLimitTokens: n } : {};
}

/**
 * The hook's context: `@caveman/keep` with the engine on this thread, loaded only when a text is
 * worth compressing (a pass never loads the engine, the tokenizer or the store), and the store
 * opened on first use through `store`. Each stand-in is journaled (`onKept`), with `journal`'s
 * host and session.
 */
export function hookContext(
  config: Config,
  deadline: number,
  store: () => CcrStore,
  journal?: { host: string; session?: string },
): HookContext {
  const expired = () => Date.now() > deadline;
  const record = journal ? keptRecorder(config, journal.host, journal.session) : undefined;
  return {
    settings: config.hooks.settings,
    persistRoots: config.hooks.persistRoots,
    readRoots: config.roots,
    wrap: wrapOptions(process.env),
    ...mcpLimit(process.env.MAX_MCP_OUTPUT_TOKENS),
    expired,
    keep: async (req) => {
      const { inlineRunner, keep } = await import("@caveman/keep");
      return keep(req, {
        run: inlineRunner,
        store: { put: (o, m) => store().put(o, m) },
        expired,
        // The producer starts with the tool's name (`Bash: cat app.log`); the journal keeps that name only.
        ...(record ? { onKept: record(req.producer ?? "unknown") } : {}),
      });
    },
    keepText: (text, meta) => Promise.resolve(store().put(text, meta).handle),
  };
}

/**
 * The hook's store: the configured SQLite file, never a memory fallback; with a team store
 * configured, every original is also queued for it (a sender delivers; the hook never connects).
 */
export function openHookStore(config: Config, deadline: number): ReturnType<typeof openQueuedOriginals> {
  return openQueuedOriginals(config, {
    busyTimeoutMs: Math.min(1000, Math.max(50, deadline - Date.now() - 100)),
  });
}

export async function runHookCommand(
  command: Extract<Command, { name: "hook" }>,
  config: Config,
  io: Io,
  stdin: Readable,
): Promise<number> {
  const settings = config.hooks.settings;
  const started = Date.now() - Math.round(process.uptime() * 1000);
  const deadline = started + settings.budgetMs;
  let store: ReturnType<typeof openHookStore> | undefined;
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
      const session = sessionOf(text);
      const ctx = hookContext(
        config,
        deadline,
        () => {
          store ??= openHookStore(config, deadline);
          return store;
        },
        { host: command.host, ...(session ? { session } : {}) },
      );
      // Gemini's stand-ins go to its project temp directory, the one place its read_file reads unwrapped.
      const run = await runHook(command.host, text, ctx, { tempRoot: join(config.hooks.geminiDir, "tmp") });
      reason = run.reason;
      if (run.stdout !== "" && Date.now() <= deadline) await writeOut(io, run.stdout);
      else if (run.stdout !== "") reason = "deadline";
    }
  } catch (err) {
    reason = `internal_error: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    // After the host has its answer: queued originals need a sender, and may not have one.
    startSenderIfNeeded(store, globalFlags(process.argv.slice(2), "hook", 1));
    try {
      store?.close();
    } catch {
      // The put, if any, already committed.
    }
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
