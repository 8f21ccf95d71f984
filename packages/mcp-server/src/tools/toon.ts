// caveman_toon_encode and caveman_toon_decode. Contract: encode is fail-open (bad JSON comes back
// unchanged with a note saying why); decode is fail-closed (invalid TOON is `cave_toon_invalid`,
// never the raw input passed off as JSON). Both are text tools: the converted text is the first
// block, byte-exact, and a one-line note with the sizes follows.
import { countTokens, toonDecode, toonEncode } from "@caveman/engine";
import { z } from "zod";
import { McpServerError } from "../errors.js";
import { defineTool, type ToolSpec } from "../registry.js";

interface Sizes {
  bytesIn: number;
  bytesOut: number;
  tokensIn: number;
  tokensOut: number;
}

function sizes(what: string, r: Sizes): string {
  return `[caveman: ${what}; ${r.bytesIn} -> ${r.bytesOut} bytes; ${r.tokensIn} -> ${r.tokensOut} tokens]`;
}

export function toonEncodeTool(): ToolSpec {
  return defineTool({
    name: "caveman_toon_encode",
    family: "compress",
    description: "JSON to TOON (compact, lossless); invalid JSON returns unchanged.",
    input: z.strictObject({ input: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: ({ input }) => {
      const r = toonEncode(input);
      if (!r.ok) {
        const bytes = Buffer.byteLength(input, "utf8");
        const tokens = countTokens(input);
        return {
          text: input,
          notes: [
            `[caveman: not encoded (${r.code}: ${r.message}); input returned unchanged; ${bytes} bytes; ${tokens} tokens]`,
          ],
        };
      }
      return { text: r.output, notes: [sizes("TOON", r)] };
    },
  });
}

export function toonDecodeTool(): ToolSpec {
  return defineTool({
    name: "caveman_toon_decode",
    family: "compress",
    description: "TOON text to JSON text (strict).",
    input: z.strictObject({ input: z.string() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: ({ input }) => {
      const r = toonDecode(input);
      if (!r.ok) throw new McpServerError("cave_toon_invalid", r.message);
      return { text: r.output, notes: [sizes("JSON", r)] };
    },
  });
}
