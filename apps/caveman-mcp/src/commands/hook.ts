// `caveman-mcp hook claude-code|gemini`, past the gate: the full path of an event that may have
// something to compress (../hookEntry.ts reads stdin, gates, and runs this in a worker thread it
// ends at the deadline). Contract: never throws; the answer is empty stdout (the host keeps its
// original output) or one complete JSON object, with the reason. Nothing is started after the
// time budget (counted from process start) runs out. The store is SQLite only (a memory store
// would hand the model a handle that dies with this process), opened only when something is
// about to be stored, with a busy timeout inside the remaining budget.
import { join } from "node:path";
import type { CcrStore } from "@caveman/ccr-store";
import { type HookContext, runHook, type WrapOptions } from "@caveman/hooks";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { globalFlags, openQueuedOriginals, startSenderIfNeeded } from "../queued.js";
import { keptRecorder } from "../savings.js";

/** The host's session id in a hook event (`session_id`), read from its start without parsing it all. */
function sessionOf(event: string): string | undefined {
  return /"session_id"\s*:\s*"([\w.:@-]{1,128})"/.exec(event.slice(0, 8192))?.[1];
}

/**
 * How the PreToolUse hook puts a Bash command under `caveman-mcp run`: this very binary (node and
 * script by absolute path), in the shell Claude Code runs commands in.
 */
function wrapOptions(config: Config): WrapOptions {
  return {
    self: [process.execPath, ...(process.argv[1] ? [process.argv[1]] : [])],
    shell: config.hooks.shell,
    // The host's PATH, which the hook inherits (config's environment: the hook's own, also when a
    // server runs its job): a command whose program is not on it is a function or alias of the
    // user's shell, and is not wrapped.
    path: config.hooks.env.PATH ?? "",
  };
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
    wrap: wrapOptions(config),
    ...(config.hooks.mcpLimitTokens ? { mcpLimitTokens: config.hooks.mcpLimitTokens } : {}),
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

/** What the hook prints (empty: the original passes) and why. */
export interface HookAnswer {
  stdout: string;
  reason: string;
}

/** One event's full path, `text` read and gated already; `argv` is the hook's own (for a sender). */
/**
 * `use` with the hook's context, its store opened at the first put; afterwards a sender for queued
 * originals where one is needed (`flags`: the global flags this process was started with), and the
 * store closed. The hook and the Bash wrapper (`run`) both keep through it.
 */
export async function withHookContext<T>(
  config: Config,
  deadline: number,
  journal: { host: string; session?: string },
  flags: readonly string[],
  use: (ctx: HookContext) => Promise<T>,
): Promise<T> {
  let store: ReturnType<typeof openHookStore> | undefined;
  try {
    return await use(
      hookContext(
        config,
        deadline,
        () => {
          store ??= openHookStore(config, deadline);
          return store;
        },
        journal,
      ),
    );
  } finally {
    startSenderIfNeeded(store, flags, config.hooks.env);
    try {
      store?.close();
    } catch {
      // The put, if any, already committed.
    }
  }
}

export async function hookEvent(
  command: Extract<Command, { name: "hook" }>,
  config: Config,
  text: string,
  deadline: number,
  argv: readonly string[],
): Promise<HookAnswer> {
  try {
    const session = sessionOf(text);
    const journal = { host: command.host, ...(session ? { session } : {}) };
    return await withHookContext(config, deadline, journal, globalFlags(argv, "hook", 1), async (ctx) => {
      // Gemini's stand-ins go to its project temp directory, the one place its read_file reads unwrapped.
      const run = await runHook(command.host, text, ctx, { tempRoot: join(config.hooks.geminiDir, "tmp") });
      if (run.stdout !== "" && Date.now() > deadline) return { stdout: "", reason: "deadline" };
      return { stdout: run.stdout, reason: run.reason };
    });
  } catch (err) {
    return { stdout: "", reason: `internal_error: ${err instanceof Error ? err.message : String(err)}` };
  }
}
