// Routes detected content to its compressor. Each returns a Candidate or the PassReason it
// would pass through with; compress() does the token accounting and the fail-closed checks.

import { detectWithValue } from "./detect.js";
import { compressCode } from "./kinds/code/outline.js";
import { compressDiagnostics } from "./kinds/diagnostics/diagnostics.js";
import { compressDiff } from "./kinds/diff/diff.js";
import { compressGrep } from "./kinds/grep/grep.js";
import { compressHtml } from "./kinds/html/html.js";
import { compressJson } from "./kinds/json/compress.js";
import { numbersSurviveParse, reencodesExactly } from "./kinds/json/numbers.js";
import { compressLog } from "./kinds/log/fold.js";
import { compressNdjson } from "./kinds/ndjson/ndjson.js";
import { compressProse } from "./kinds/prose/prose.js";
import { compressStacktrace } from "./kinds/stacktrace/stacktrace.js";
import { compressTable } from "./kinds/table/table.js";
import { compressTerminal } from "./kinds/terminal/terminal.js";
import { compressTest } from "./kinds/test/testout.js";
import { compressText } from "./kinds/text/text.js";
import type { Candidate, Detection, KindContext, PassReason } from "./types.js";

/** A carriage return that neither ends a line nor starts a CRLF. */
const LONE_CR = /\r(?!\n|$)/gm;

/** Runs the compressor of `detection.kind`. May throw; compress() catches. */
export function compressByKind(
  text: string,
  detection: Detection & { value?: unknown },
  ctx: KindContext,
): Candidate | PassReason {
  switch (detection.kind) {
    case "json":
      if (!("value" in detection)) return "parse_error";
      // A number a double cannot hold exactly, or a repeated key, would be rewritten: pass through.
      if (!reencodesExactly(text, detection.value)) return "parse_error";
      return compressJson(text, detection.value, ctx) ?? "not_smaller";
    case "ndjson":
      // Kept records are quoted verbatim, but marker facts would state rounded numbers.
      if (!numbersSurviveParse(text)) return "parse_error";
      return compressNdjson(text, ctx);
    case "log":
      return compressLog(text, ctx);
    case "stacktrace":
      return compressStacktrace(text, ctx);
    case "test":
      return compressTest(text, ctx);
    case "diagnostics":
      return compressDiagnostics(text, ctx);
    case "grep":
      return compressGrep(text, ctx);
    case "diff":
      return compressDiff(text, ctx);
    case "code":
      return compressCode(text, ctx, detection.language);
    case "table":
      return compressTable(text, ctx);
    case "html":
      return compressHtml(text, ctx);
    case "prose":
      return compressProse(text, ctx);
    case "terminal":
      return compressTerminal(text, ctx, (clean, inner) => {
        // A line kept whole with its lone CRs (not redraws of one line) must not make the
        // cleaned text terminal output again: detection reads those CRs as spaces.
        const det = detectWithValue(clean.includes("\r") ? clean.replace(LONE_CR, " ") : clean, inner.hint);
        if (det.kind === "terminal") return { kind: det.kind, result: "not_smaller" };
        return { kind: det.kind, result: compressByKind(clean, det, inner) };
      });
    default:
      return compressText(text, ctx);
  }
}
