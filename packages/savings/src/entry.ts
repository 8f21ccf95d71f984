// One journal line. Contract: a line holds figures and names only — time, event, host, tool name,
// kind, token counts, the handle and the session id — never a command, a path or any content, and
// every field is bounded, so a line is at most a few hundred bytes whatever a caller passes.
// `encodeEntry` refuses what it cannot write faithfully (a bad handle, negative or fractional
// tokens); `decodeEntry` reads a line back or returns null, so one torn or foreign line never
// hides the rest of the journal.

/** `kept`: an output was compressed and its original kept; `retrieved`: the model read some of it back. */
export type SavingsEvent = "kept" | "retrieved";

export interface SavingsEntry {
  /** Epoch milliseconds. */
  at: number;
  event: SavingsEvent;
  /** `claude-code`, `gemini`, `proxy`, `mcp`, `cli`… (who compressed or retrieved). */
  host?: string;
  /** The tool whose output it was (`Bash`, `mcp__github__list_issues`, `caveman_retrieve`). */
  tool: string;
  /** The engine's kind (`log`, `json`, `diff`…). */
  kind: string;
  /** Tokens of the original (kept) or 0 (retrieved). */
  tokensIn: number;
  /** Tokens the model read: the stand-in (kept) or what the retrieve returned. */
  tokensOut: number;
  handle: string;
  session?: string;
}

const HANDLE = /^ccr_[0-9a-f]{32}$/;
const NAME_MAX = 96;

/**
 * A name as the journal keeps it: the part before the first `:` or blank (a producer such as
 * `run_shell_command: cat app.log` keeps only the tool), printable ASCII, at most 96 characters.
 */
export function journalName(raw: string): string {
  const head = raw.trim().split(/[\s:]/, 1)[0] ?? "";
  return head.replace(/[^\x21-\x7e]/g, "?").slice(0, NAME_MAX);
}

const count = (n: number) => Number.isSafeInteger(n) && n >= 0;

/** The line for `e` (no newline), or null when `e` cannot be written faithfully. */
export function encodeEntry(e: SavingsEntry): string | null {
  if (!HANDLE.test(e.handle) || !count(e.tokensIn) || !count(e.tokensOut) || !Number.isFinite(e.at))
    return null;
  const tool = journalName(e.tool);
  if (tool === "") return null;
  const line: Record<string, string | number> = {
    at: new Date(Math.trunc(e.at)).toISOString(),
    ev: e.event === "retrieved" ? "get" : "keep",
    tool,
    kind: journalName(e.kind) || "unknown",
    in: e.tokensIn,
    out: e.tokensOut,
    handle: e.handle,
  };
  if (e.host) line.host = journalName(e.host);
  const session = e.session ? e.session.replace(/[^\w.:@-]/g, "").slice(0, NAME_MAX) : "";
  if (session) line.session = session;
  return JSON.stringify(line);
}

/** The entry on one line, or null when the line is not one (torn, foreign, hand-edited). */
export function decodeEntry(line: string): SavingsEntry | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const at = typeof o.at === "string" ? Date.parse(o.at) : Number.NaN;
  if (
    !Number.isFinite(at) ||
    (o.ev !== "keep" && o.ev !== "get") ||
    typeof o.tool !== "string" ||
    typeof o.kind !== "string" ||
    typeof o.in !== "number" ||
    typeof o.out !== "number" ||
    !count(o.in) ||
    !count(o.out) ||
    typeof o.handle !== "string" ||
    !HANDLE.test(o.handle)
  )
    return null;
  return {
    at,
    event: o.ev === "get" ? "retrieved" : "kept",
    tool: o.tool,
    kind: o.kind,
    tokensIn: o.in,
    tokensOut: o.out,
    handle: o.handle,
    ...(typeof o.host === "string" ? { host: o.host } : {}),
    ...(typeof o.session === "string" ? { session: o.session } : {}),
  };
}
