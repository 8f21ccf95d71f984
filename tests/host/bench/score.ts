// Pure helpers of the session bench (issue 23): token counting, fact scoring, what the host did
// to an output, the follow-up an agent would write, and the table. No processes, no files.
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ENGINE = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "packages", "engine");
// o200k, the tokenizer the engine counts with; resolved through the engine so this private package
// needs no dependency of its own (and no lockfile change).
const tokenizer = createRequire(`${ENGINE}/package.json`)("gpt-tokenizer") as {
  countTokens(text: string): number;
};

/** o200k tokens of what the model read. */
export function tokens(text: string): number {
  return text === "" ? 0 : tokenizer.countTokens(text);
}

/** The facts whose exact string is in `text` (visible at first look), and the rest. */
export function scoreFacts(text: string, facts: readonly string[]): { seen: string[]; missing: string[] } {
  const seen = facts.filter((f) => text.includes(f));
  return { seen, missing: facts.filter((f) => !seen.includes(f)) };
}

const HANDLE = /ccr_[0-9a-f]{32}/;

/** The recovery handle our stand-in named, if any. */
export function handleIn(text: string): string | undefined {
  return HANDLE.exec(text)?.[0];
}

/** The file Claude Code saved a large result to (`<persisted-output>` stub, MCP over its limit). */
export function persistedPath(text: string): string | undefined {
  return /saved to:? (\/\S+?\.(?:txt|json))\b/.exec(text)?.[1];
}

/** What the host did to an output, read off the text it showed. */
export function hostCut(text: string): "persisted" | "middle_cut" | "mcp_over_limit" | "none" {
  if (/^Error: result \(/m.test(text) && persistedPath(text)) return "mcp_over_limit";
  if (text.includes("<persisted-output>") || /Output too large/.test(text)) return "persisted";
  if (/\[\d+ characters truncated\]/.test(text)) return "middle_cut";
  return "none";
}

/** A shell word: single-quoted, so `$`, backquotes and `!` stay literal. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * A grep follow-up for a missing fact, as an agent writes it: grep the host's saved file (its
 * strings, through jq, when the host saved an MCP result as JSON), else the file the call read,
 * else the command again through grep.
 */
export function grepFollowUp(
  fact: string,
  where: { saved?: string; json?: boolean; file?: string; command?: string },
): string {
  const needle = `grep -F -m 3 -- ${shellQuote(fact)}`;
  if (where.saved && where.json) return `jq -r '.. | strings' ${shellQuote(where.saved)} | ${needle}`;
  if (where.saved) return `${needle} ${shellQuote(where.saved)}`;
  if (where.file) return `${needle} ${shellQuote(where.file)}`;
  return `${where.command ?? "true"} 2>&1 | ${needle}`;
}

/** Our hook's runs in the debug log (any event: PostToolUse, PreToolUse, ...): when each finished, its time and verdict. */
export interface HookRun {
  at: number;
  event: string;
  tool: string;
  ms: number;
  verdict: string;
}

export function hookRuns(debug: string): HookRun[] {
  const runs: HookRun[] = [];
  for (const line of debug.split("\n")) {
    const done =
      /^(\S+) \[\w+\] Hooks: (\w+):(\S+) \[.*caveman-mcp.* finished with status \d+ \((\d+)ms\)/.exec(line);
    if (done) {
      runs.push({
        at: Date.parse(done[1]!),
        event: done[2]!,
        tool: done[3]!,
        ms: Number(done[4]),
        verdict: "",
      });
      continue;
    }
    const verdict =
      /^\S+ \[\w+\] "Hook (\w+):(\S+) \(\w+\) \w+:.*caveman-mcp hook claude-code: ([a-z_ ()]+)"$/.exec(line);
    const open = verdict
      ? [...runs].reverse().find((r) => r.event === verdict[1] && r.tool === verdict[2] && r.verdict === "")
      : undefined;
    if (open && verdict) open.verdict = verdict[3]!.trim();
  }
  return runs;
}

/** The median, or undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

/** One call of one mode, as the model received it. */
export interface CallScore {
  id: string;
  tool: string;
  /** Tokens of the tool result at first look. */
  tokens: number;
  facts: number;
  firstLook: number;
  /** Facts found after follow-ups (first look included). */
  found: number;
  followUps: number;
  followUpTokens: number;
  /** Query retrieves among the follow-ups, with their tokens. */
  retrieveTokens: number[];
  host: ReturnType<typeof hostCut>;
  handle: boolean;
  /** The handle's original is byte-exact with what the command printed (or the file read). */
  exact?: boolean;
  isError: boolean;
  /** The hook's verdict from the debug log (mode b), or "" when none ran. */
  verdict: string;
  hookMs?: number;
}

export interface ModeTotals {
  tokens: number;
  followUpTokens: number;
  total: number;
  facts: number;
  firstLook: number;
  found: number;
  followUps: number;
  retrieves: number;
  retrieveMedian: number | undefined;
  hookP50: number | undefined;
  hooked: number;
}

export function totals(calls: readonly CallScore[]): ModeTotals {
  const sum = (f: (c: CallScore) => number) => calls.reduce((n, c) => n + f(c), 0);
  const retrieves = calls.flatMap((c) => c.retrieveTokens);
  const hookMs = calls.flatMap((c) => (c.hookMs === undefined ? [] : [c.hookMs]));
  return {
    tokens: sum((c) => c.tokens),
    followUpTokens: sum((c) => c.followUpTokens),
    total: sum((c) => c.tokens + c.followUpTokens),
    facts: sum((c) => c.facts),
    firstLook: sum((c) => c.firstLook),
    found: sum((c) => c.found),
    followUps: sum((c) => c.followUps),
    retrieves: retrieves.length,
    retrieveMedian: median(retrieves),
    hookP50: median(hookMs),
    hooked: hookMs.length,
  };
}

/** A failing command's check in mode b: compressed, with a handle whose original is byte-exact. */
export interface FailingCheck {
  id: string;
  exit: number;
  bytes: number;
  compressed: boolean;
  handle: boolean;
  byteExact: boolean | undefined;
}

/** What call b cost more than call a, follow-ups included (negative: b saved). */
const delta = (a: CallScore, b: CallScore) => b.tokens + b.followUpTokens - (a.tokens + a.followUpTokens);
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The calls where (b) cost the most more than (a), worst first: where the hook and engine lose. */
export function losses(
  a: readonly CallScore[],
  b: readonly CallScore[],
  n = 8,
): Array<{ id: string; delta: number }> {
  const byId = new Map(b.map((c) => [c.id, c]));
  return a
    .flatMap((x) => {
      const y = byId.get(x.id);
      return y ? [{ id: x.id, delta: delta(x, y) }] : [];
    })
    .filter((d) => d.delta > 0)
    .sort((p, q) => q.delta - p.delta)
    .slice(0, n);
}

const pct = (a: number, b: number) => (b === 0 ? "-" : `${Math.round((a / b) * 100)}%`);

/** The one table: per call (a) vs (b), then totals and the issue's targets. */
export function table(
  a: readonly CallScore[],
  b: readonly CallScore[],
  failing: readonly FailingCheck[],
  extra: {
    schemaTokens: { a: number; b: number };
    fullRetrieveErrors: number;
    fullRetrieves: number;
    fullRetrievePaged?: number;
  },
): string {
  const rows: string[][] = [
    [
      "call",
      "tool",
      "a tok",
      "b tok",
      "b/a",
      "facts",
      "a 1st",
      "b 1st",
      "a fu tok",
      "b fu tok",
      "Δ total",
      "host a",
      "b hook",
      "ms",
    ],
  ];
  const byId = new Map(b.map((c) => [c.id, c]));
  for (const x of a) {
    const y = byId.get(x.id);
    rows.push([
      x.id,
      x.tool,
      String(x.tokens),
      y ? String(y.tokens) : "-",
      y ? pct(y.tokens, x.tokens) : "-",
      String(x.facts),
      String(x.firstLook),
      y ? String(y.firstLook) : "-",
      `${x.followUpTokens}${x.followUps ? ` (${x.followUps})` : ""}`,
      y ? `${y.followUpTokens}${y.followUps ? ` (${y.followUps})` : ""}` : "-",
      y ? signed(delta(x, y)) : "-",
      x.host === "none" ? "" : x.host,
      y ? `${y.verdict}${y.handle ? ` +h${y.exact === undefined ? "" : y.exact ? "=" : "≠"}` : ""}` : "-",
      y?.hookMs === undefined ? "" : String(y.hookMs),
    ]);
  }
  const ta = totals(a);
  const tb = totals(b);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i < 2 || i >= 11 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const out = rows.map(line);
  const firstLookRatio = ta.firstLook === 0 ? Number.POSITIVE_INFINITY : tb.firstLook / ta.firstLook;
  const failingOk = failing.filter((f) => f.compressed && f.handle && f.byteExact === true).length;
  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  out.push(
    "",
    `first look tokens      a ${ta.tokens}  b ${tb.tokens} (${pct(tb.tokens, ta.tokens)})`,
    `follow-up tokens       a ${ta.followUpTokens} (${ta.followUps} follow-ups)  b ${tb.followUpTokens} (${tb.followUps} follow-ups, ${tb.retrieves} retrieves)`,
    `TOTAL                  a ${ta.total}  b ${tb.total} (${pct(tb.total, ta.total)})   target b <= 60%: ${verdict(tb.total <= 0.6 * ta.total)}`,
    `facts first look       a ${ta.firstLook}/${ta.facts}  b ${tb.firstLook}/${tb.facts} (x${firstLookRatio.toFixed(2)})   target >= 1.5x: ${verdict(firstLookRatio >= 1.5)}`,
    `facts after follow-ups a ${ta.found}/${ta.facts}  b ${tb.found}/${tb.facts}   target b >= a: ${verdict(tb.found >= ta.found)}`,
    `query retrieve median  ${tb.retrieveMedian ?? "-"} tokens (${tb.retrieves})   target <= 400: ${verdict((tb.retrieveMedian ?? 0) <= 400)}`,
    `full retrieves         ${extra.fullRetrieves} (${extra.fullRetrievePaged ?? 0} paged), host errors ${extra.fullRetrieveErrors}   target 0: ${verdict(extra.fullRetrieveErrors === 0)}`,
    `failing commands       ${failingOk}/${failing.length} compressed with a byte-exact handle   target all: ${verdict(failingOk === failing.length)}`,
    ...failing.map(
      (f) =>
        `  ${f.id.padEnd(widths[0]!)} exit ${String(f.exit).padStart(3)} ${String(f.bytes).padStart(7)} B  compressed ${f.compressed ? "yes" : "no"}  handle ${f.handle ? "yes" : "no"}  byte-exact ${f.byteExact === undefined ? "-" : f.byteExact ? "yes" : "NO"}`,
    ),
    "(+h: a handle was named; = its original is byte-exact with the output, ≠ it is not)",
    `biggest losses (b - a) ${
      losses(a, b)
        .map((d) => `${d.id} +${d.delta}`)
        .join(", ") || "none"
    }`,
    `hook time p50          ${tb.hookP50 ?? "-"} ms over ${tb.hooked} hooked calls`,
    `tool schemas/request   a ${extra.schemaTokens.a}  b ${extra.schemaTokens.b} (+${extra.schemaTokens.b - extra.schemaTokens.a})`,
  );
  return out.join("\n");
}
