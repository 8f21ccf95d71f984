// The token budget of a replacement, from what the host would have shown in its place. Contract:
// pure (no fs, no env, no engine). Where Claude Code would save an output to a file and show the
// model a short preview instead, a replacement may cost no more than that preview: compression has
// to beat the host's own truncation, not a whole output the model would never have read. Elsewhere
// the budget is the `budgetTokens` setting. The host's limits are named here once.

/**
 * What Claude Code's `<persisted-output>` stub costs the model, in o200k tokens, stub and path
 * included. Measured in the real CLI (2.1.328 and 2.1.332, against a scripted model, issue 23): a
 * 96,898-token log reached the model as 717 tokens, and the ~2 KB preview of other logs cost
 * 500–1,157 tokens. 700 keeps every replacement at or under the common case.
 */
export const HOST_PREVIEW_TOKENS = 700;

/** Bash output (stdout and stderr together) over this many characters is persisted (2.1.328). */
export const BASH_PERSIST_CHARS = 30_000;

/**
 * Grep's result over this many characters is persisted with the same preview: the tool's
 * `maxResultSizeChars` in the CLI's bundle (2.1.328 and 2.1.333). The session bench's Grep call
 * reached the baseline model as a 570-token preview, and our 1,500-token budget lost to it.
 */
export const GREP_PERSIST_CHARS = 20_000;

// Read is cut by size, not only by lines: in 2.1.328 a 3,003-line JSON file (17K tokens) came
// whole, and a 9,003-line one (52K tokens) as its first 4,746 lines (host tier, failing.test.ts).

/** Claude Code's default `MAX_MCP_OUTPUT_TOKENS`; a larger MCP result is saved to a file. */
export const MCP_MAX_OUTPUT_TOKENS = 25_000;

/** Lower bound of a text's o200k tokens from its length (a token is at most ~6 characters of such output). */
function tokensAtLeast(chars: number): number {
  return Math.floor(chars / 6);
}

/** The budget of a Bash output of `chars` characters (stdout and stderr together). */
export function bashBudget(chars: number, persisted: boolean, budgetTokens: number): number {
  return persisted || chars > BASH_PERSIST_CHARS ? Math.min(HOST_PREVIEW_TOKENS, budgetTokens) : budgetTokens;
}

/**
 * How many characters Claude Code shows the model of a content-mode Grep result, the count its
 * limit is held to: the content ("No matches found" when empty), then a pagination note when
 * `head_limit` or `offset` applied (the tool's mapToolResultToToolResultBlockParam in the CLI's
 * bundle). The note is ~55 characters: content just under the limit with it is over the limit.
 */
export function grepShownChars(content: string, appliedLimit: unknown, appliedOffset: unknown): number {
  const text = content || "No matches found";
  const limit = typeof appliedLimit === "number" ? appliedLimit : undefined;
  const offset = typeof appliedOffset === "number" ? appliedOffset : undefined;
  if (!limit && !offset) return text.length;
  return (
    text.length + `\n\n[Showing results with pagination = limit: ${limit}, offset: ${offset ?? 0}]`.length
  );
}

/** The budget of a Grep result (content mode) the host shows as `chars` characters (grepShownChars). */
export function grepBudget(chars: number, budgetTokens: number): number {
  return chars > GREP_PERSIST_CHARS ? Math.min(HOST_PREVIEW_TOKENS, budgetTokens) : budgetTokens;
}

/** The budget of a Read that the host cut (line cap) or returned whole. */
export function readBudget(cut: boolean, budgetTokens: number): number {
  return cut ? Math.min(HOST_PREVIEW_TOKENS, budgetTokens) : budgetTokens;
}

/**
 * The budget of an MCP result of `chars` characters: the preview's when the host would surely
 * save it to a file (`limitTokens` is the session's `MAX_MCP_OUTPUT_TOKENS`), else the setting.
 */
export function mcpBudget(chars: number, limitTokens: number, budgetTokens: number): number {
  return tokensAtLeast(chars) > limitTokens ? Math.min(HOST_PREVIEW_TOKENS, budgetTokens) : budgetTokens;
}

/** Shares of one budget over texts, by length: each non-empty text gets at least a tenth of it. */
export function splitBudget(budget: number, lengths: readonly number[]): number[] {
  const total = lengths.reduce((a, b) => a + b, 0);
  if (total === 0) return lengths.map(() => budget);
  const live = lengths.filter((n) => n > 0).length;
  if (live <= 1) return lengths.map(() => budget);
  const floor = Math.floor(budget / 10);
  const rest = budget - floor * live;
  return lengths.map((n) => (n === 0 ? 0 : floor + Math.floor((rest * n) / total)));
}
