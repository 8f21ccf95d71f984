// caveman_toon_encode and caveman_toon_decode. Contract: encode is fail-open (bad JSON comes back
// unchanged with a note saying why); decode is fail-closed (invalid TOON is `cave_toon_invalid`,
// never the raw input passed off as JSON). Both are text tools: the converted text is the first
// block, byte-exact, and a one-line note with the sizes follows. Both run through the engine under
// a deadline: past it encode passes the input through with a note, decode fails with
// `cave_engine_timeout` (a JSON text that is not the decoded TOON would be a made-up answer).
import { z } from "zod";
import { McpServerError } from "../errors.js";
import { defineTool, type ToolSpec } from "../registry.js";
import type { Engine, EngineOutcome } from "../work/engine.js";
import type { ToonAnswer } from "../work/jobs.js";
import { roughTokens } from "../work/tokens.js";
import { notEncodedNote, sizesNote } from "./notes.js";

export function toonEncodeTool(engine: Engine): ToolSpec {
  return defineTool({
    name: "caveman_toon_encode",
    family: "compress",
    description: "JSON to TOON (compact, lossless); invalid JSON returns unchanged.",
    input: z.strictObject({ input: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async ({ input }, ctx) => {
      const outcome = await engine.run({ op: "toon_encode", input }, ctx.signal);
      if (outcome.ok && outcome.value.ok) {
        return { text: outcome.value.output, notes: [sizesNote("TOON", outcome.value)] };
      }
      const bytes = Buffer.byteLength(input, "utf8");
      const { why, tokens } = notEncoded(outcome, input);
      return {
        text: input,
        notes: [notEncodedNote(why, bytes, tokens)],
      };
    },
  });
}

/** Why encode passed its input through, and the input's token count ("about" when the engine gave none). */
function notEncoded(outcome: EngineOutcome<ToonAnswer>, input: string): { why: string; tokens: string } {
  if (!outcome.ok) {
    const why =
      outcome.why === "timeout"
        ? `timeout: took longer than ${outcome.budgetMs} ms`
        : `internal_error: ${outcome.message}`;
    return { why, tokens: `about ${roughTokens(input)}` };
  }
  const r = outcome.value;
  if (r.ok) return { why: "internal_error: encoded but not returned", tokens: String(r.tokensIn) };
  return { why: `${r.code}: ${r.message}`, tokens: String(r.inputTokens ?? `about ${roughTokens(input)}`) };
}

export function toonDecodeTool(engine: Engine): ToolSpec {
  return defineTool({
    name: "caveman_toon_decode",
    family: "compress",
    description: "TOON text to JSON text (strict).",
    input: z.strictObject({ input: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async ({ input }, ctx) => {
      const outcome = await engine.run({ op: "toon_decode", input }, ctx.signal);
      if (!outcome.ok) {
        if (outcome.why === "timeout")
          throw new McpServerError(
            "cave_engine_timeout",
            `decoding took longer than ${outcome.budgetMs} ms and was stopped; split the input or raise --engine-timeout-ms`,
          );
        throw new McpServerError(
          "cave_engine_failed",
          `decoding failed (${outcome.message}); the server is still running`,
        );
      }
      const r = outcome.value;
      if (!r.ok) throw new McpServerError("cave_toon_invalid", r.message);
      return { text: r.output, notes: [sizesNote("JSON", r)] };
    },
  });
}
