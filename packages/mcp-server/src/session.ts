// Per-session state of the compression family. Contract: figures are for this connection only
// (`scope: "session"`) and inferred from token counts (`basis: "inferred"`); saved tokens are net of
// what retrieve gave back. The retrieve ledger implements the anti-storm rules of docs/ARCHITECTURE.md
// ("Tool contract") and never withholds anything this session has not already been shown: a
// repeat gets a pointer, pages do not count as new queries, and only an original shown whole
// (not one of its pages) answers later queries with a pointer.

/** Distinct narrowed retrieves of one handle before the next one may return the full original. */
export const DISTINCT_RETRIEVE_LIMIT = 5;
/**
 * The most tokens an original may cost for the distinct-query limit to return it whole: about what
 * the limit's views cost together (five views of the engine's default 400-token budget). A bigger
 * original is cheaper to go on narrowing, one bounded view at a time.
 */
export const FORCED_FULL_MAX_TOKENS = 2000;

// A page of the original (`page:N`) or of a search (`<query> page:N`): the engine's query grammar
// (narrow/query.ts). A page continues an answer already begun, so it is not a new distinct query.
const PAGE_QUERY = /(?:^|\s)page\s*:\s*\d+$/i;

interface KindFigures {
  calls: number;
  tokens_in: number;
  tokens_out: number;
}

export interface SessionStats {
  basis: "inferred";
  scope: "session";
  calls: number;
  compressed: number;
  passed_through: number;
  tokens_in: number;
  tokens_out: number;
  retrieves: number;
  retrieved_tokens: number;
  saved_tokens_net: number;
  pass_reasons: Record<string, number>;
  kinds: Record<string, KindFigures>;
}

export type RetrievePlan =
  | { kind: "repeat"; callNo: number }
  | { kind: "already_full"; callNo: number }
  /** The whole original (paged when it is over a page): an empty query. */
  | { kind: "full" }
  /** Past the distinct-query limit: the whole original if it costs at most FORCED_FULL_MAX_TOKENS, else a view. */
  | { kind: "full_if_small" }
  | { kind: "narrow" };

export class Session {
  #calls = 0;
  #compressed = 0;
  #passed = 0;
  #tokensIn = 0;
  #tokensOut = 0;
  #retrieves = 0;
  #retrievedTokens = 0;
  readonly #reasons = new Map<string, number>();
  readonly #kinds = new Map<string, KindFigures>();
  readonly #seen = new Map<string, number>();
  readonly #distinct = new Map<string, number>();
  readonly #fullShown = new Map<string, number>();
  readonly #retrievedOutputs = new Set<string>();

  recordCompress(kind: string, tokensIn: number, tokensOut: number, passReason?: string): void {
    this.#calls++;
    this.#tokensIn += tokensIn;
    this.#tokensOut += tokensOut;
    if (passReason) {
      this.#passed++;
      this.#reasons.set(passReason, (this.#reasons.get(passReason) ?? 0) + 1);
    } else {
      this.#compressed++;
    }
    const k = this.#kinds.get(kind) ?? { calls: 0, tokens_in: 0, tokens_out: 0 };
    k.calls++;
    k.tokens_in += tokensIn;
    k.tokens_out += tokensOut;
    this.#kinds.set(kind, k);
  }

  /**
   * Decide how to answer a retrieve before doing it (the ledger is only updated by
   * `recordRetrieve`). The empty query is page 1 of the original, so asking it again after a
   * paged answer points there too.
   */
  planRetrieve(handle: string, query: string): RetrievePlan {
    const full = this.#fullShown.get(handle);
    if (full !== undefined) return { kind: "already_full", callNo: full };
    const seen = this.#seen.get(key(handle, query));
    if (seen !== undefined) return { kind: "repeat", callNo: seen };
    if (query === "") return { kind: "full" };
    if (!PAGE_QUERY.test(query) && (this.#distinct.get(handle) ?? 0) >= DISTINCT_RETRIEVE_LIMIT)
      return { kind: "full_if_small" };
    return { kind: "narrow" };
  }

  /** Record an answered retrieve; returns its number in this session (1-based). */
  recordRetrieve(
    handle: string,
    query: string,
    shownFull: boolean,
    tokens: number,
    outputHandle: string,
  ): number {
    this.#retrieves++;
    this.#retrievedTokens += tokens;
    this.#seen.set(key(handle, query), this.#retrieves);
    if (query !== "" && !PAGE_QUERY.test(query))
      this.#distinct.set(handle, (this.#distinct.get(handle) ?? 0) + 1);
    if (shownFull) this.#fullShown.set(handle, this.#retrieves);
    this.#retrievedOutputs.add(outputHandle);
    return this.#retrieves;
  }

  /** True when `handle` is the content handle of something a retrieve returned (never re-compressed). */
  isRetrievedOutput(handle: string): boolean {
    return this.#retrievedOutputs.has(handle);
  }

  stats(): SessionStats {
    return {
      basis: "inferred",
      scope: "session",
      calls: this.#calls,
      compressed: this.#compressed,
      passed_through: this.#passed,
      tokens_in: this.#tokensIn,
      tokens_out: this.#tokensOut,
      retrieves: this.#retrieves,
      retrieved_tokens: this.#retrievedTokens,
      saved_tokens_net: this.#tokensIn - this.#tokensOut - this.#retrievedTokens,
      pass_reasons: Object.fromEntries(this.#reasons),
      kinds: Object.fromEntries(this.#kinds),
    };
  }
}

function key(handle: string, query: string): string {
  return `${handle}\u0000${query}`;
}
