// Which tool outputs the hooks may touch, and what hint the engine gets. Contract: pure functions
// of the tool name, its input and the settings; deny wins over allow; our own tools (retrieve,
// compress, the be-* edit tools) are never touched, so a retrieve's original always reaches the
// model whole and numbered lines an edit relies on are never rewritten.
import type { ContentKind } from "@caveman/engine";
import type { HookSettings } from "./settings.js";

/** Kinds whose compressed form a model can act on without the original (reading code or prose needs every line). */
const OUTPUT_KINDS: ReadonlySet<string> = new Set<ContentKind>([
  "json",
  "ndjson",
  "log",
  "stacktrace",
  "test",
  "diagnostics",
  "grep",
  "diff",
  "table",
  "html",
  "terminal",
  "text",
]);

/**
 * Kinds a file Read may be compressed to. A Read is how a model prepares an edit, so only data
 * files qualify: the host renders line numbers over the compressed text, which stop matching the
 * file, and an edit of code or prose needs the exact lines.
 */
const READ_KINDS: ReadonlySet<string> = new Set<ContentKind>(["json", "ndjson", "log", "table"]);

/** Our own tools, in any host's naming (`mcp__caveman__caveman_retrieve`, `mcp_caveman_caveman_retrieve`, `caveman_retrieve`). */
const OWN_TOOL = /(?:^|_)caveman_(?:retrieve|compress|stats|toon_encode|toon_decode)$|(?:^|_)be-[a-z-]+$/;

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${body}$`);
}

function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => globToRegExp(p).test(name));
}

/** Why a tool's output is left alone, or null when it may be compressed. */
export function toolRefusal(toolName: string, settings: HookSettings): string | null {
  if (!settings.enabled) return "disabled";
  if (OWN_TOOL.test(toolName)) return "own_tool";
  if (matchesAny(toolName, settings.deny)) return "denied";
  if (settings.allow.length > 0 && !matchesAny(toolName, settings.allow)) return "not_allowed";
  return null;
}

/** True when the command asks for raw output for this one call (`# caveman:raw`, `CAVEMAN_RAW=1 …`). */
export function wantsRaw(command: string, settings: HookSettings): boolean {
  return settings.rawMarkers.some((m) => command.includes(m));
}

/** Whether a compressed result of this kind may replace the output of this sort of tool. */
export function kindAllowed(kind: string, source: "read" | "output"): boolean {
  return source === "read" ? READ_KINDS.has(kind) : OUTPUT_KINDS.has(kind);
}

const EXTENSION_KINDS: ReadonlyArray<[RegExp, string]> = [
  [/\.(json|geojson|har)$/i, "json"],
  [/\.(jsonl|ndjson)$/i, "ndjson"],
  [/\.(log|out|err)(\.\d+)?$/i, "log"],
  [/\.(csv|tsv)$/i, "table"],
  [/\.(diff|patch)$/i, "diff"],
];

/** The engine hint for a file path: a kind from its extension, else nothing. */
export function hintForPath(path: string): string | undefined {
  for (const [re, kind] of EXTENSION_KINDS) if (re.test(path)) return kind;
  return undefined;
}

/**
 * The engine hint for a shell command: the last command of a `&&`/`;` chain, without leading
 * environment assignments and wrappers (`cd x && FOO=1 time pytest -q` -> `pytest -q`). A pager
 * or `cat` of a file hints that file's kind (`cat app.log` -> `log`).
 */
export function hintForCommand(command: string): string | undefined {
  const noComment = command.replace(/\s#[^\n]*$/, "");
  const segments = noComment
    .split(/&&|\|\||;|\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  let last = segments.at(-1);
  if (!last) return undefined;
  // The producer of a pipeline is its first stage (`pytest | tee out` is test output).
  last = last.split(/(?<!\|)\|(?!\|)/)[0]!.trim();
  last = last.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, "");
  last = last.replace(/^(?:sudo|time|nice|command|exec|npx|uv run|poetry run)\s+/, "");
  const pager = /^(?:cat|head|tail|less|more|bat)\b(?:\s+-\S+(?:\s+\d+)?)*\s+(\S+)\s*$/.exec(last);
  if (pager?.[1]) return hintForPath(pager[1].replace(/^['"]|['"]$/g, "")) ?? last;
  return last.slice(0, 200) || undefined;
}
