// Routes detected content to its compressor. Each returns a Candidate or the PassReason it
// would pass through with; compress() does the token accounting and the fail-closed checks.
// Where a line-based kind gives up (unsure detection, distinct lines, a parse that fails), the
// text is folded as lines with region markers instead (kinds/text/fold.ts): safe for any text,
// so line-structured output never passes through whole for want of a kind.

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
import { foldLines } from "./kinds/text/fold.js";
import { compressText } from "./kinds/text/text.js";
import type { Candidate, Detection, KindContext, PassReason } from "./types.js";

/** A carriage return that neither ends a line nor starts a CRLF. */
const LONE_CR = /\r(?!\n|$)/gm;

/** Reasons a kind gives up with after which the line fold is tried. */
const FOLDABLE: ReadonlySet<PassReason> = new Set(["document", "not_smaller", "parse_error"]);
/**
 * Kinds whose output is not the input's lines: a JSON document stays JSON, HTML becomes its
 * text, terminal output is cleaned first (the cleaned text gets the fold through the callback).
 */
const NOT_LINES: ReadonlySet<Detection["kind"]> = new Set(["json", "html", "terminal"]);

/**
 * A kind's candidate keeping more than this share of the input's characters is weak: the line
 * fold competes with it, and wins when it is at most FOLD_WINS of the candidate's size. Measured
 * in characters, which cost nothing to count (tokens follow them closely within one text).
 */
const WEAK = 0.45;
/**
 * Kinds whose candidate keeps what the fold would sample away on purpose (every signature, every
 * heading, every file line and hunk header of a diff): they compete only when they give up. Diagnostics do compete: a weak result there is
 * the same message at many locations, which the fold keeps once per template and counts.
 */
const KEEPS_ALL: ReadonlySet<Detection["kind"]> = new Set(["code", "prose"]);
const FOLD_WINS = 0.6;
const GAVE_UP = 0.88;

/** Runs the compressor of `detection.kind`, then the line fold where it gives up or saves little. May throw. */
export function compressByKind(
  text: string,
  detection: Detection & { value?: unknown },
  ctx: KindContext,
): Candidate | PassReason {
  const first = compressKind(text, detection, ctx);
  if (NOT_LINES.has(detection.kind)) return first;
  if (typeof first === "string") {
    if (!FOLDABLE.has(first)) return first;
    const folded = foldLines(text, ctx);
    return typeof folded === "string" ? first : folded;
  }
  if (first.output.length <= text.length * WEAK) return first;
  // A candidate this close to the input would not pass compress()'s MIN_GAIN: the kind gave up.
  if (KEEPS_ALL.has(detection.kind) && first.output.length <= text.length * GAVE_UP) return first;
  const folded = foldLines(text, ctx);
  return typeof folded !== "string" && folded.output.length <= first.output.length * FOLD_WINS
    ? folded
    : first;
}

function compressKind(
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
