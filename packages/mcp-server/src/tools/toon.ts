// caveman_toon_encode and caveman_toon_decode. Contract: encode is fail-open (bad JSON comes back
// unchanged with a note saying why); decode is fail-closed (invalid TOON is `cave_toon_invalid`,
// never the raw input passed off as JSON).
import { countTokens, toonDecode, toonEncode } from "@caveman/engine";
import { z } from "zod";
import { McpServerError } from "../errors.js";
import { defineTool, type ToolSpec } from "../registry.js";

/** The advertised part of the result; `bytes_in`, `bytes_out` and `passed_through` ride along. */
const Sizes = z.object({ tokens_in: z.number(), tokens_out: z.number() });

function sizesOf(r: { bytesIn: number; bytesOut: number; tokensIn: number; tokensOut: number }) {
  return { bytes_in: r.bytesIn, bytes_out: r.bytesOut, tokens_in: r.tokensIn, tokens_out: r.tokensOut };
}

export function toonEncodeTool(): ToolSpec {
  return defineTool({
    name: "caveman_toon_encode",
    family: "compress",
    description: "JSON to TOON (compact, lossless); invalid JSON returns unchanged.",
    input: z.strictObject({ input: z.string() }),
    output: Sizes,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: ({ input }) => {
      const r = toonEncode(input);
      if (!r.ok) {
        const bytes = Buffer.byteLength(input, "utf8");
        const tokens = countTokens(input);
        return {
          text: input,
          notes: [`[caveman: not encoded (${r.code}: ${r.message}); input returned unchanged]`],
          structured: {
            bytes_in: bytes,
            bytes_out: bytes,
            tokens_in: tokens,
            tokens_out: tokens,
            passed_through: true,
          },
        };
      }
      return {
        text: r.output,
        structured: sizesOf(r),
      };
    },
  });
}

export function toonDecodeTool(): ToolSpec {
  return defineTool({
    name: "caveman_toon_decode",
    family: "compress",
    description: "TOON text to JSON text (strict).",
    input: z.strictObject({ input: z.string() }),
    output: Sizes,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: ({ input }) => {
      const r = toonDecode(input);
      if (!r.ok) throw new McpServerError("cave_toon_invalid", r.message);
      return {
        text: r.output,
        structured: sizesOf(r),
      };
    },
  });
}
