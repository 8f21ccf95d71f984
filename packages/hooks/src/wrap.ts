// Claude Code's PreToolUse hook on Bash: whether a command runs under `caveman-mcp run`, which
// captures its output, keeps the exit status and prints a stand-in when the output is large — the
// one way to compress a failing command, since Claude Code sends a non-zero exit to
// PostToolUseFailure (which can only add context) and cuts the middle of a long one. Contract:
// cheap string checks only (this runs before every Bash call; it imports nothing heavy; the one
// look-up is a stat of each segment's program on the host's PATH), never
// throws, and wraps only what is safe to run one level down: never a command that asks for raw
// output, runs in the background, talks to a terminal, streams forever (servers, `watch`,
// `tail -f`), changes the shell's own state (`cd`, `export`, `source`: the host keeps that state
// between calls, and a child shell would lose it), names a program that is not on the PATH (a
// function or alias of the user's shell, which the host sources and a child shell has not), or is
// wrapped already.
//
// By default only in bypassPermissions mode: elsewhere the host checks the user's allow rules
// against the rewritten command, so a command allowed by a rule would be asked about again.
//
// Output, as Claude Code 2.1.328 reads it: `{hookSpecificOutput: {hookEventName: "PreToolUse",
// updatedInput}}` with no `permissionDecision`. The host applies an `updatedInput` that comes
// without a decision as a plain rewrite and then runs its own permission check (seen in its
// source: a rewrite with `permissionBehavior` unset yields `hookUpdatedInput`); "allow" would skip
// the user's prompt, which a compression hook must never do. `updatedInput` replaces the whole
// input, so every field the model gave (timeout, description…) is carried over.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { HookDecision } from "./event.js";
import { isObj, openEvent } from "./event.js";
import { wantsRaw } from "./policy.js";
import type { HookSettings } from "./settings.js";

export interface WrapOptions {
  /** argv that starts this very caveman-mcp (`node /path/cli.mjs`), each word as is. */
  self: readonly string[];
  /** The shell the original command runs in (`bash`, `zsh`). */
  shell: string;
  /**
   * The PATH the command's words are looked up in (the host's; the hook has it from the host).
   * Set, a command whose program is not on it is left alone (see `unknownProgram`); unset or
   * empty, no lookup is made.
   */
  path?: string;
}

/** Claude Code's Bash timeout when the model gives none (ms). */
const HOST_DEFAULT_TIMEOUT_MS = 120_000;
/** Longer commands than this are left alone: their text alone would be a cost. */
const MAX_COMMAND_CHARS = 64 * 1024;
/**
 * Most bytes the host's one `-c` argument may take with the rewritten command in it. Claude Code
 * runs a command as `bash -c "source <snapshot> && … && eval '<command>' < /dev/null && pwd -P >| …"`,
 * each `'` of the command spelled `'"'"'` (seen in 2.1.261: 424 bytes around a 43-byte command),
 * and Linux refuses any one argument past MAX_ARG_STRLEN (128 KiB) with E2BIG. Wrapping quotes the
 * command once more, so a quote-rich heredoc that ran as it was would no longer start: past this
 * (128 KiB less room for the host's own words and paths) the command runs as it is.
 */
const MAX_HOST_ARG_BYTES = 120 * 1024;

/** The bytes of the host's `eval '…'` word for `command` (see MAX_HOST_ARG_BYTES). */
export function hostArgBytes(command: string): number {
  const quotes = command.split("'").length - 1;
  return Buffer.byteLength(command, "utf8") + 4 * quotes + 2;
}

/** A POSIX shell word for `s`. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** Programs that talk to a terminal or never end on their own, whatever their arguments. */
const ALWAYS = new Set(
  "watch less more most man vi vim nvim nano emacs pico top htop btop ssh telnet screen tmux fzf nodemon ngrok http-server webpack-dev-server live-server browser-sync jupyter redis-server mongod yes".split(
    " ",
  ),
);
/** Programs that are a REPL when given no arguments (or only `-i`). */
const REPLS = new Set(
  "python python3 node deno bun irb pry ipython psql mysql sqlite3 redis-cli mongo mongosh ghci lua R julia bash sh zsh fish cat".split(
    " ",
  ),
);
/** Commands that change the shell's own state, which the host keeps from one call to the next. */
const SHELL_STATE = new Set(
  "cd pushd popd export unset source . alias unalias set shopt exec ulimit umask declare typeset local readonly trap deactivate workon".split(
    " ",
  ),
);
/** Servers and watchers among otherwise ordinary tools: the first words of a segment. */
const SERVES: readonly RegExp[] = [
  /^(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|watch|preview)\b/,
  /^(?:npx\s+|pnpm\s+exec\s+)?(?:next|nuxt|astro|remix|vite|ng|expo|gatsby|hugo|jekyll|mkdocs|docusaurus)(?:\s+(?:dev|serve|server|start|develop))?\s*$/,
  /^(?:npx\s+|pnpm\s+exec\s+)?(?:next|nuxt|astro|ng|expo|gatsby|hugo|jekyll|mkdocs|webpack)\s+(?:dev|serve|server|start|develop)\b/,
  /^python3?\s+-m\s+(?:http\.server|SimpleHTTPServer)\b/,
  /^(?:flask|streamlit)\s+run\b/,
  /^(?:uvicorn|gunicorn|hypercorn|daphne|caddy|nginx|php\s+-S|rails\s+s(?:erver)?\b|(?:bundle\s+exec\s+)?rails\s+s(?:erver)?\b|manage\.py\s+runserver|python3?\s+manage\.py\s+runserver)/,
  /^(?:docker|podman)(?:\s+compose|-compose)\s+up\b(?!.*\s-d\b)(?!.*--detach)/,
  /^docker-compose\s+up\b(?!.*\s-d\b)(?!.*--detach)/,
  /^(?:docker|podman)\s+(?:run|exec)\b.*\s-(?:\w*i\w*t|\w*t\w*i|i|t)\b/,
  /^kubectl\s+(?:port-forward|attach|exec\s+.*-it?\b)/,
  /^(?:cargo|dotnet)\s+watch\b/,
  /^sleep\s+(?:infinity|inf)\b/,
];
/** Flags that follow a stream forever or start a watcher. */
const FOLLOWS = /(?:^|\s)(?:-f|-F|--follow|--watch|--watchAll|-w)(?:\s|=|$)/;
/** Programs whose `-f`/`-w` means follow or watch (elsewhere `-f` is a file or force). */
const FOLLOWERS =
  /^(?:tail|journalctl|(?:docker|podman|kubectl|stern)\s+(?:\S+\s+)*logs|tsc|jest|vitest|mocha|webpack|rollup|esbuild|tsup|parcel|sass|less|stylus|ava)\b/;

/**
 * Words that stand before a segment's real command without being it: reserved words (`if`,
 * `then`, `do`, `!`, a `case` head or pattern, an opening `(` or `{`), builtins and programs that
 * run their arguments (`builtin`, `command`, `eval`, `time`, `env`, `nohup`, `sudo`, `nice`,
 * `timeout`, `sh -c`), and leading assignments. Each is taken off the front, repeatedly, so that
 * `if ! env A=1 tail -f log` is judged as `tail -f log`.
 */
const PREFIXES: readonly RegExp[] = [
  /^\(\s*/,
  /^[{!](?:\s+|$)/,
  /^(?:if|then|else|elif|do|while|until|builtin|nohup)(?:\s+|$)/,
  /^command(?:\s+-p)?(?:\s+|$)/,
  /^time(?:\s+-p)?(?:\s+|$)/,
  /^eval\s+['"]?/,
  /^case\s+\S+\s+in(?:\s+|$)/,
  // A case pattern (`start)`, `(*.ts)`); `a|b)` is cut at the `|` already, leaving `b)`.
  /^\(?[^\s()'"]+\)(?:\s+|$)/,
  /^(?:ba|da|k|z)?sh\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*c\s+['"]?/,
  /^sudo(?:\s+(?:-[ugChpDrtU]\s*[^\s-]\S*|--\S+|-[A-Za-z]+))*\s+/,
  /^env(?:\s+(?:-[iv0]+|-[uCS]\s*\S+|--\S+|-))*(?:\s+|$)/,
  /^nice(?:\s+-n\s*-?\d+|\s+-\d+|\s+--adjustment=\S+)?\s+/,
  /^timeout(?:\s+(?:-[sk]\s*\S+|--\S+|-[A-Za-z]+))*\s+\d[\w.]*\s+/,
  /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|[^\s'"])*\s+/,
];

/** The segment from its real command word on (see PREFIXES); empty when it has none. */
export function stripPrefixes(segment: string): string {
  let s = segment.trim();
  for (let changed = true; changed && s !== ""; ) {
    changed = false;
    for (const re of PREFIXES) {
      const m = re.exec(s);
      if (m && m[0] !== "") {
        s = s.slice(m[0].length).trimStart();
        changed = true;
      }
    }
  }
  return s;
}

/** The command's simple-command segments, split on `&&`, `||`, `;`, `|` and newlines (quotes are not parsed: a cheap, cautious cut). */
function segments(command: string): string[] {
  return command
    .split(/&&|\|\||;|\||\n/)
    .map(stripPrefixes)
    .filter(Boolean);
}

/** Words the shell runs itself (builtins and reserved words of bash and zsh): no PATH has them. */
const SHELL_OWN = new Set(
  "! : . [ [[ ]] { } ( ) (( )) alias autoload bg bind break builtin caller case cd command compgen complete continue coproc declare dirs disown do done echo elif else emulate enable esac eval exec exit export false fc fg fi for foreach function getopts hash help history if in jobs kill let local logout mapfile noglob popd print printf pushd pwd read readarray readonly repeat return select set setopt shift shopt source suspend test then time times trap true type typeset ulimit umask unalias unset unsetopt until wait whence where which while".split(
    " ",
  ),
);

/** `command` without the bodies of its here-documents, which are data, not commands. */
function withoutHeredocs(command: string): string {
  const kept: string[] = [];
  let end: { word: string; tabs: boolean } | null = null;
  for (const line of command.split("\n")) {
    if (end) {
      if ((end.tabs ? line.replace(/^\t+/, "") : line) === end.word) end = null;
      continue;
    }
    kept.push(line);
    const m = /<<(-?)\s*(['"]?)([A-Za-z_][\w.-]*)\2/.exec(line.replace(/<<</g, ""));
    if (m) end = { word: m[3]!, tabs: m[1] === "-" };
  }
  return kept.join("\n");
}

function isProgram(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first command word, if any, that neither the shell itself nor `path` knows: most likely a
 * function or alias of the user's shell. Claude Code runs each command after sourcing a snapshot
 * of the user's shell (functions, aliases, options); the shell `caveman-mcp run` starts for the
 * command has none of them, so such a command would fail with "command not found" once wrapped.
 * A word with a `/`, a `$`, a quote or a backquote is not looked up (a path, or made at run time).
 */
export function unknownProgram(command: string, path: string): string | null {
  const dirs = path.split(delimiter).filter(Boolean);
  if (dirs.length === 0) return null;
  const seen = new Set<string>();
  for (const seg of segments(withoutHeredocs(command).replace(/\\\n/g, " "))) {
    const word = seg.split(/\s+/)[0] ?? "";
    if (word === "" || seen.has(word) || SHELL_OWN.has(word)) continue;
    if (/[/$`'"\\#<>=]|^-/.test(word)) continue;
    seen.add(word);
    if (seen.size > 32) return null;
    if (!dirs.some((d) => isProgram(join(d, word)))) return word;
  }
  return null;
}

/** Why `command` runs as it is, or null when it may be wrapped. */
export function wrapRefusal(
  command: string,
  input: Record<string, unknown>,
  settings: HookSettings,
): string | null {
  if (!settings.enabled) return "disabled";
  if (command.trim() === "") return "empty_command";
  if (command.length > MAX_COMMAND_CHARS) return "command_too_long";
  if (wantsRaw(command, settings)) return "raw_requested";
  if (input.run_in_background === true) return "background";
  if (/(?:^|\s)run --stream-after-ms \d+ -- |\bcaveman-mcp(?:@\S+)?\s+run\b/.test(command))
    return "already_wrapped";
  // A job sent to the background keeps the output pipe open after the command is done.
  const noRedirects = command.replace(/[0-9]*[<>]&[0-9-]+|&>>?|&&/g, " ");
  if (/&/.test(noRedirects)) return "background";
  // `eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`: text made at run time, as a rule to set
  // the shell's own state, and no way to know its command word from here.
  if (/(?:^|[\s;&|(!{])eval\s+["']?[$`]/.test(command)) return "shell_state";
  for (const seg of segments(command)) {
    const words = seg.split(/\s+/);
    // A quote left where `eval "…"` or `sh -c '…'` began or ends is no part of the word.
    const first = (words[0] ?? "").replace(/^.*\//, "").replace(/['"]+$/, "");
    if (
      SHELL_STATE.has(first) ||
      /^(?:conda|mamba|micromamba)\s+(?:activate|deactivate)\b|^nvm\s+use\b/.test(seg)
    )
      return "shell_state";
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) return "shell_state";
    if (ALWAYS.has(first)) return "interactive";
    if (REPLS.has(first) && words.slice(1).every((w) => w === "-i")) return "interactive";
    if (SERVES.some((re) => re.test(seg))) return "streaming";
    if ((FOLLOWERS.test(seg) && FOLLOWS.test(seg)) || /\s--watch(?:All)?(?:\s|$)/.test(seg))
      return "streaming";
    // Interactive git: an editor or a prompt.
    if (
      /^git\s+(?:rebase\s+(?:-i|--interactive)|add\s+(?:-p|-i|--patch|--interactive)|commit(?!.*\s(?:-m|--message|-F|--file|--no-edit|-C)\b))/.test(
        seg,
      )
    )
      return "interactive";
  }
  return null;
}

/** The wrapped command: the original, quoted whole, as one argument of `SHELL -c` under `caveman-mcp run`. */
export function wrappedCommand(command: string, timeoutMs: number, opts: WrapOptions): string {
  // Past half the host's timeout the wrapper streams the output through as it comes, so a command
  // the host kills still leaves the model what it printed.
  const streamAfter = Math.max(1000, Math.floor(timeoutMs / 2));
  return [...opts.self, "run", "--stream-after-ms", String(streamAfter), "--", opts.shell, "-c", command]
    .map(shellWord)
    .join(" ");
}

/** Decide what Claude Code's PreToolUse hook prints for this stdin object. Never throws on odd input. */
export function claudeCodePreToolUse(
  event: unknown,
  settings: HookSettings,
  opts: WrapOptions | undefined,
): HookDecision {
  if (!opts) return { pass: "no_wrapper" };
  const opened = openEvent(event, "PreToolUse", settings);
  if ("pass" in opened) return opened;
  if (opened.toolName !== "Bash") return { pass: "not_bash" };
  const { input } = opened;
  // Claude Code matches permission rules against the rewritten command (seen in 2.1.328: with
  // `Bash(echo:*)` allowed, a wrapped `echo` "requires approval"); only where nothing is asked is
  // wrapping free of that cost, unless the settings say otherwise.
  if (settings.wrapCommands === "off") return { pass: "wrap_off" };
  if (settings.wrapCommands === "bypass" && opened.event.permission_mode !== "bypassPermissions")
    return { pass: "permission_mode" };
  const command = typeof input.command === "string" ? input.command : "";
  const refusal = wrapRefusal(command, input, settings);
  if (refusal) return { pass: refusal };
  if (opts.path && unknownProgram(command, opts.path) !== null) return { pass: "not_a_program" };
  const timeout =
    typeof input.timeout === "number" && input.timeout > 0 ? input.timeout : HOST_DEFAULT_TIMEOUT_MS;
  const wrapped = wrappedCommand(command, timeout, opts);
  if (hostArgBytes(wrapped) > MAX_HOST_ARG_BYTES) return { pass: "command_too_long" };
  const updatedInput = { ...(isObj(input) ? input : {}), command: wrapped };
  return { output: { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput } }, handles: [] };
}

/** The original command inside a wrapped one (for hints and the producer), or the command itself. */
export function unwrappedCommand(command: string): string {
  const m = /\srun --stream-after-ms \d+ -- \S+ -c ('(?:[^']|'\\'')*'|[\w@%+=:,./-]+)$/.exec(command);
  if (!m) return command;
  const word = m[1]!;
  return word.startsWith("'") ? word.slice(1, -1).replace(/'\\''/g, "'") : word;
}
