// caveman_retrieve. Contract: fail-closed — a handle that is not one, or is not in the store, is
// `cave_unknown_handle`, never a made-up payload; what comes back is the stored original verified
// against its handle, byte-exact (whole, or page by page), or a narrowed view. The bytes are not
// hashed again here: every store's get checks them against the stored SHA-256 and the handle, and
// a record that fails is `cave_store_corrupt`, never returned. With a team store behind the local
// one, a handle that lived there and ran out is `cave_handle_expired`, and one that only the team
// store could answer while it is away is `cave_store_unavailable` (both from the store's errors).
//
// What a call returns (the engine's narrow, under a deadline):
// - no query: the original whole when it fits one page of `pageTokens` (under the host's result
//   limit, e.g. Claude Code's 25,000-token MAX_MCP_OUTPUT_TOKENS), else page 1 with a note naming
//   the page count and the query for the next page (`page:2`); the pages concatenate to the
//   original byte for byte, so no full retrieve is ever a host error;
// - a query: the grep-like view of the matching lines, or the slice a structural query names,
//   inside the engine's view budget, ending in a marker that says how to ask for the rest.
// The session ledger answers repeats with a pointer and, past the distinct-query limit, returns
// the original whole if it is small (see session.ts). A text tool, exempt from the result cap:
// the original, page or view is the first block, byte-exact, and any note follows in its own
// block. If narrowing fails or runs out of time, a small original comes back whole and a large
// one gets a note pointing at `page:1` — never a guess, never a result over the host's limit.
import type { AnyCcrStore } from "@caveman/ccr-store";
import { computeHandle, originalText, parseHandle } from "@caveman/ccr-store";
import { DEFAULT_PAGE_TOKENS } from "@caveman/engine";
import { z } from "zod";
import type { TextOutcome } from "../contract.js";
import { McpServerError } from "../errors.js";
import { defineTool, type ToolSpec } from "../registry.js";
import { DISTINCT_RETRIEVE_LIMIT, FORCED_FULL_MAX_TOKENS, type Session } from "../session.js";
import type { Engine } from "../work/engine.js";
import { outputOf } from "../work/jobs.js";
import { countTokensWithin } from "../work/tokens.js";
import {
  alreadyReturned,
  overPageAfterFailure,
  viewNote,
  wholeAfterFailure,
  wholeAfterQueries,
} from "./notes.js";

/** What one retrieve gave the model, for a savings journal (the app's; nothing here keeps it). */
export interface Retrieved {
  handle: string;
  kind: string | null;
  /** o200k tokens of what was returned. */
  tokens: number;
}

export interface RetrieveDeps {
  ccr: AnyCcrStore;
  session: Session;
  engine: Engine;
  /** Most o200k tokens one page of a full retrieve may cost (default DEFAULT_PAGE_TOKENS, 16,000). */
  pageTokens?: number;
  /** Called once per retrieve that returned the original or a view (not for a repeat's pointer); must not throw. */
  onRetrieved?: (r: Retrieved) => void;
}

async function load(
  ccr: AnyCcrStore,
  raw: string,
): Promise<{ handle: string; text: string; kind: string | null }> {
  const handle = parseHandle(raw);
  if (!handle) {
    throw new McpServerError(
      "cave_unknown_handle",
      `"${raw.slice(0, 80)}" is not a recovery handle (expected ccr_<32 hex>)`,
    );
  }
  const record = await ccr.get(handle);
  if (!record) {
    throw new McpServerError(
      "cave_unknown_handle",
      `${handle} is not in the store (never stored, evicted, or another store)`,
    );
  }
  const text = originalText(record);
  if (text === null) {
    throw new McpServerError(
      "cave_unknown_handle",
      `${handle} holds ${record.size} bytes that are not UTF-8 text`,
    );
  }
  return { handle, text, kind: record.kind };
}

interface Answer {
  output: string;
  full: boolean;
  note?: string;
  tokens?: number;
}

export function retrieveTool(deps: RetrieveDeps): ToolSpec {
  const pageTokens = deps.pageTokens ?? DEFAULT_PAGE_TOKENS;

  /** The engine's answer to `query` (the empty query: page 1), or why there is none. */
  async function narrowed(
    text: string,
    query: string,
    kind: string | null,
    signal: AbortSignal,
  ): Promise<Answer> {
    const job = { op: "narrow" as const, input: text, query, pageTokens, ...(kind ? { hint: kind } : {}) };
    const outcome = await deps.engine.run(job, signal);
    if (outcome.ok) {
      const v = outcome.value;
      // A whole original asked for whole needs no note; a page, or a view that came back whole, does.
      const note = v.note && !(v.full && query === "") ? { note: viewNote(v.note) } : {};
      return { output: outputOf(v, text), full: v.full, tokens: v.tokens, ...note };
    }
    const what = query === "" ? "paging the original" : "narrowing by this query";
    const why =
      outcome.why === "timeout" ? `took longer than ${outcome.budgetMs} ms` : `failed (${outcome.message})`;
    // Characters bound tokens from above for all but rare scripts: this much fits a page.
    if (text.length <= pageTokens) return { output: text, full: true, note: wholeAfterFailure(what, why) };
    const next =
      query === "page:1" || query === "" ? "try again later" : 'ask query "page:1" for it page by page';
    return {
      output: overPageAfterFailure(what, why, text.length, next),
      full: false,
    };
  }

  return defineTool({
    name: "caveman_retrieve",
    family: "compress",
    description:
      "Get the exact original behind a recovery_handle, or with query only the matching lines (text, /regex/, lines:120-180, /json/pointer).",
    input: z.strictObject({
      recovery_handle: z.string().max(200),
      query: z.string().max(2000).optional(),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async ({ recovery_handle, query }, ctx): Promise<TextOutcome> => {
      const { handle, text, kind } = await load(deps.ccr, recovery_handle);
      const q = (query ?? "").trim();
      const plan = deps.session.planRetrieve(handle, q);
      if (plan.kind === "repeat" || plan.kind === "already_full") {
        const what = plan.kind === "repeat" ? "this exact retrieve" : "the full original";
        const note = alreadyReturned(what, handle, plan.callNo);
        return { text: note, uncapped: true };
      }
      let answer: Answer | undefined;
      if (plan.kind === "full_if_small") {
        const { tokens } = await countTokensWithin(deps.engine, text, ctx.signal);
        if (tokens <= FORCED_FULL_MAX_TOKENS)
          answer = {
            output: text,
            full: true,
            tokens,
            note: wholeAfterQueries(DISTINCT_RETRIEVE_LIMIT, handle),
          };
      }
      answer ??= await narrowed(text, q, kind, ctx.signal);
      const tokens =
        answer.tokens ?? (await countTokensWithin(deps.engine, answer.output, ctx.signal)).tokens;
      deps.session.recordRetrieve(handle, q, answer.full, tokens, computeHandle(answer.output));
      deps.onRetrieved?.({ handle, kind, tokens });
      return { text: answer.output, notes: answer.note ? [answer.note] : [], uncapped: true };
    },
  });
}
