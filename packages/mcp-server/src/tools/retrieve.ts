// caveman_retrieve. Contract: fail-closed — a handle that is not one, or is not in the store, is
// `cave_unknown_handle`, never a made-up payload; what comes back is the stored original verified
// against its handle (byte-exact when no query narrows it), or a narrowed view of whole units with
// gap markers. The bytes are not hashed again here: every store's get checks them against the
// stored SHA-256 and the handle, and a record that fails is `cave_store_corrupt`, never returned.
// With a team store behind the local one, a handle that lived there and ran out is
// `cave_handle_expired`, and one that only the team store could answer while it is away is
// `cave_store_unavailable` (both from the store's own errors). The session ledger answers repeats
// with a pointer and, after the distinct-query limit, returns the full original once and says so.
// Exempt from the result size cap. A text tool: the original or view is the first block,
// byte-exact, and any note follows in its own block, so an original goes over the wire once.
// Narrowing runs through `deps.engine` under a deadline; past it, or if the engine fails, the full
// original comes back with a note saying so — never less than was asked for, never a guess.
import type { AnyCcrStore } from "@caveman/ccr-store";
import { computeHandle, originalText, parseHandle } from "@caveman/ccr-store";
import { z } from "zod";
import type { TextOutcome } from "../contract.js";
import { McpServerError } from "../errors.js";
import { defineTool, type ToolSpec } from "../registry.js";
import { DISTINCT_RETRIEVE_LIMIT, type Session } from "../session.js";
import type { Engine } from "../work/engine.js";
import { outputOf } from "../work/jobs.js";
import { countTokensWithin } from "../work/tokens.js";

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

export function retrieveTool(deps: RetrieveDeps): ToolSpec {
  return defineTool({
    name: "caveman_retrieve",
    family: "compress",
    description:
      "Get the exact original behind a recovery_handle, or with query only the matching parts (records, lines; also lines:120-180 or /json/pointer).",
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
        const note = `[caveman: ${what} of ${handle} was already returned in this session (retrieve #${plan.callNo}); see that result above]`;
        return { text: note, uncapped: true };
      }
      let output = text;
      let full = true;
      let note: string | undefined;
      let tokens: number | undefined;
      if (plan.kind === "full" && plan.forced) {
        note = `[caveman: more than ${DISTINCT_RETRIEVE_LIMIT} distinct queries on ${handle}; returning the full original]`;
      } else if (plan.kind === "narrow") {
        const job = { op: "narrow" as const, input: text, query: q, ...(kind ? { hint: kind } : {}) };
        const outcome = await deps.engine.run(job, ctx.signal);
        if (outcome.ok) {
          output = outputOf(outcome.value, text);
          full = outcome.value.full;
          tokens = outcome.value.tokens;
          if (outcome.value.note) note = `[caveman: ${outcome.value.note}]`;
        } else {
          note =
            outcome.why === "timeout"
              ? `[caveman: narrowing by this query took longer than ${outcome.budgetMs} ms; returning the full original]`
              : `[caveman: narrowing by this query failed (${outcome.message}); returning the full original]`;
        }
      }
      tokens ??= (await countTokensWithin(deps.engine, output, ctx.signal)).tokens;
      deps.session.recordRetrieve(handle, q, full, tokens, computeHandle(output));
      deps.onRetrieved?.({ handle, kind, tokens });
      return { text: output, notes: note ? [note] : [], uncapped: true };
    },
  });
}
