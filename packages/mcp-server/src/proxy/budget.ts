// The token budget of a proxied result's stand-in, set from what the host would have shown.
// Contract: a result the host would refuse (over Claude Code's MAX_MCP_OUTPUT_TOKENS it is saved
// to a file and the model reads only an error stub with its path) gets a stand-in no dearer than
// that stub; every other result gets the default budget, so no stand-in ever costs more than it.
// The size is measured on what the host shows: the `structuredContent` JSON when there is one,
// else the text blocks together (the host's limit is on the whole result, not on a block).
import { countTokens } from "@caveman/engine";

/**
 * Claude Code's MAX_MCP_OUTPUT_TOKENS default (docs/TOOLCHAIN: "default about 25,000 tokens").
 * The env var is not plumbed through the app's config yet, so the host default stands here.
 */
export const HOST_MCP_LIMIT_TOKENS = 25_000;

/**
 * Budget over the host's limit. The host's stub ("Error: result (N characters) exceeds maximum
 * allowed tokens. Output has been saved to <path>...") cost 489 tokens in the session bench
 * (pg statements log, Claude Code 2.1.328); 450 keeps the stand-in, header included, under it.
 */
export const OVER_LIMIT_BUDGET_TOKENS = 450;

/**
 * Budget under the host's limit: the hooks' `budget_tokens` default (packages/hooks settings.ts,
 * measured there: 1,500 shows as many gold facts as 2,000, and more than 700 or 1,000).
 */
export const DEFAULT_BUDGET_TOKENS = 1_500;

export interface BudgetLimits {
  /** The host's limit on one MCP result, in tokens (default HOST_MCP_LIMIT_TOKENS). */
  hostLimitTokens?: number;
  /** Budget of a stand-in for a result under that limit (default DEFAULT_BUDGET_TOKENS). */
  budgetTokens?: number;
  /** Budget of a stand-in for a result over it (default OVER_LIMIT_BUDGET_TOKENS). */
  overLimitBudgetTokens?: number;
}

export interface ResultBudget {
  /** Most tokens the stand-in may cost, header included. */
  tokens: number;
  /** True when the host would not show the result at all (only its error stub). */
  overHostLimit: boolean;
  /** Tokens of what the host would show (o200k, sampled when large; a quarter of the characters when short). */
  shownTokens: number;
}

/** The budget of a result whose shown part is `shown`. */
export function resultBudget(shown: string, limits: BudgetLimits = {}): ResultBudget {
  const limit = limits.hostLimitTokens ?? HOST_MCP_LIMIT_TOKENS;
  // A token is at least one UTF-8 byte and a UTF-16 unit at most three: so short a text is under
  // the limit uncounted (the count, sampled past a size, runs on the relay's thread).
  const shownTokens = shown.length * 3 <= limit ? Math.ceil(shown.length / 4) : countTokens(shown);
  const overHostLimit = shownTokens > limit;
  const tokens = overHostLimit
    ? (limits.overLimitBudgetTokens ?? OVER_LIMIT_BUDGET_TOKENS)
    : (limits.budgetTokens ?? DEFAULT_BUDGET_TOKENS);
  return { tokens, overHostLimit, shownTokens };
}
