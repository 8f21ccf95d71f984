// Deterministic content-kind detection. Terminal escapes mean "terminal" (cleaned, then classified
// again), text that parses as JSON is JSON (and our own canonical TOON output counts as JSON),
// then a hint (a kind or the producing tool) decides, then content rules over a bounded sample of
// lines (behind any read-tool gutter). When no rule is confident the answer is "text", which no
// compressor restructures.

import { decode, encode } from "@toon-format/toon";
import { stripGutters } from "./gutter.js";
import { kindFromHint } from "./hints.js";
import { detectLanguage } from "./kinds/code/language.js";
import { isJavacDiagnostics, isRustDiagnostics } from "./kinds/diagnostics/detect.js";
import { isStatListing } from "./kinds/diff/stat.js";
import { isGrepWithContext } from "./kinds/grep/detect.js";
import { isListingTable } from "./kinds/table/detect.js";
import { alignedTableStart, isGrepHeading, isPathList, isStructuredLog } from "./structure.js";
import type { ContentKind, Detection } from "./types.js";
import { tick } from "./work.js";

const SAMPLE_LINES = 400;
// The OSC body stops at the next ESC too: `[^\u0007]*` alone rescanned to the end of the sample
// from every unterminated "ESC ]", quadratic in a flood of them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what we look for
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*\u0007/;
const BIOME_DIAG = /^\S+:\d+:\d+ [\w-]+\/[\w/-]+ |^\S+:\d+:\d+ (parse|format|lint|check)\b.*━/;
const UNITTEST =
  /^\w+ \([\w.]+\) \.\.\. (ok|FAIL|ERROR|skipped)|^Ran \d+ tests? in |^(FAIL|ERROR): \w+ \(|^FAILED \((failures|errors)=/;
const TS_DIAG = /^\S.*\(\d+,\d+\): (error|warning) TS\d+:|^\S.*:\d+:\d+ - (error|warning) TS\d+:/;
const GCC_DIAG = /^[^\s:]+:\d+:\d+: (fatal error|error|warning|note):/;
const RUST_DIAG = /^(error|warning)(\[E\d+\])?: /;
const ESLINT_ROW = /^\s+\d+:\d+\s+(error|warning)\s+/;
// A path holds no comma (a CSV row with a clock in its second cell is not a hit).
const GREP_HIT = /^([^\s:,]+):(\d+)[:-]/;
const NORMAL_DIFF_CMD = /^\d+(,\d+)?[acd]\d+(,\d+)?$/;
const TEST_LINE =
  /^\s*(✓|✗|×|✔|✘|↓)\s|^\s*(FAIL|PASS)\s+\S|^\s*(Test Files|Tests|Test Suites)\s+\d|^(=== RUN|--- (FAIL|PASS)|ok\s+\S+\s+\d)|(?<!=)={3,} (FAILURES|ERRORS|short test summary|\d+ (passed|failed))|^\s*\d+ (passing|failing|pending)\b|collected \d+ items?|^(not )?ok \d+\b|^TAP version \d+$/;
/** pytest's progress row (`tests/a.py ..F.s  [ 14%]`): one opening the text means a test run. */
const PYTEST_PROGRESS = /^(\S+\.py )?[.FEsxX]{4,}\s*\[\s*\d{1,3}%\]$/;
// `(?<!=)`: a pytest banner is matched from the start of its "=" run only; from every "=" it was
// quadratic in a long run of them.
// pytest -v: `tests/a.py::test_x PASSED`. The first word is read once and then checked for "::":
// `::\S+ PASSED` restarted at every "::" and ran to the end of the line, quadratic in one line of
// "::" pairs.
const PYTEST_RESULT = /^\s*\S+ (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b/;

/** The status of a pytest -v result line (its node id holds "::"), else undefined. */
export function pytestResult(line: string): string | undefined {
  const m = PYTEST_RESULT.exec(line);
  return m?.[0].includes("::") ? m[1] : undefined;
}
const FRAME =
  /^\s+at \S|^\s+File ".*", line \d+|^\tat [\w$.]+\(|^\s*Caused by: |^Traceback \(most recent call last\):|^\s+\.\.\. \d+ more$/;
// The last alternative is NODE_DEBUG's `HTTP 27826: ...` (subsystem and pid).
const LOG_LINE =
  /^\s*(\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{1,3}(\.\d{1,3}){3} \S+ \S+ \[|\[?(INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|NOTICE|CRIT)\b|(info|warn|error|debug|verbose|http|silly)\s|\d+ (verbose|info|warn|error|silly|http|timing)\s|[A-Z]{2,12} \d{1,7}: )/;
const HTML_START = /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i;

function ratio(lines: readonly string[], test: (line: string) => boolean): number {
  tick(lines.length);
  let hit = 0;
  let total = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    total++;
    if (test(line)) hit++;
  }
  return total === 0 ? 0 : hit / total;
}

const TOON_HEAD = /^("[^"\n]*"|[\w.-]+)?(\[\d+[,|\t]?\])?(\{[^}\n]*\})?:( |$)/;

/**
 * The value of `text` when it is exactly what the TOON encoder writes for that value (our own
 * lossless output), so that compressing it again is recognised as JSON and changes nothing.
 */
function canonicalToon(text: string): unknown {
  // Only inputs up to TOON_MAX_CHARS are ever re-encoded as TOON; larger ones cannot be ours.
  if (text.length > 300_000 || !TOON_HEAD.test(text) || !text.includes("\n")) return undefined;
  try {
    const value = decode(text, { strict: true });
    if (value === null || typeof value !== "object") return undefined;
    return encode(value) === text ? value : undefined;
  } catch {
    return undefined;
  }
}

function looksJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith("{") || t.startsWith("[");
}

function isNdjson(lines: readonly string[]): boolean {
  const rows = lines.filter((l) => l.trim() !== "");
  if (rows.length < 2) return false;
  for (const row of rows.slice(0, 50)) {
    const t = row.trim();
    if (!(t.startsWith("{") && t.endsWith("}")) && !(t.startsWith("[") && t.endsWith("]"))) return false;
    try {
      JSON.parse(t);
    } catch {
      return false;
    }
  }
  return true;
}

function isTable(lines: readonly string[]): boolean {
  const rows = lines.filter((l) => l.trim() !== "");
  if (rows.length < 4) return false;
  if (rows[0]!.trimStart().startsWith("|") && /^\s*\|?\s*:?-{3,}/.test(rows[1] ?? "")) return true;
  for (const delim of ["\t", ","]) {
    const width = rows[0]!.split(delim).length;
    // Two cells is one delimiter per line, which log lines (`09:00:01,714 - INFO ...`) have too.
    if (width < 3) continue;
    if (ratio(rows, (l) => l.split(delim).length === width) >= 0.9) return true;
  }
  return false;
}

function isProse(lines: readonly string[]): boolean {
  const rows = lines.filter((l) => l.trim() !== "");
  if (rows.length < 3) return false;
  const words = rows.reduce((sum, l) => sum + l.split(/\s+/).length, 0);
  // The word before a sentence stop is bounded ({3,40}) and must start a word: `[a-z]{3,}[.!?] `
  // retried a greedy run from every letter of a long word, 8 s for 3 lines of 80,000 letters.
  const sentences = ratio(rows, (l) =>
    /[a-z][.!?:,)]?$|^#{1,6} |^\s*[-*] |(?<![a-z])[a-z]{3,40}[.!?] /i.test(l),
  );
  return words / rows.length >= 5 && sentences >= 0.6;
}

/** Mostly rows of a markdown table. */
function isMarkdownTable(lines: readonly string[]): boolean {
  return (
    ratio(lines, (l) => /^\s*\|.*\|\s*$/.test(l)) >= 0.6 && lines.some((l) => /^\s*\|?\s*:?-{3,}/.test(l))
  );
}

/** Markdown: headings or links, and prose outside the fenced code blocks. */
function isMarkdown(lines: readonly string[]): boolean {
  const outside: string[] = [];
  let fenced = false;
  let fences = 0;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      fences++;
      continue;
    }
    if (!fenced) outside.push(line);
  }
  const headings = outside.filter((l) => /^#{1,6} \S/.test(l)).length;
  // Bounded, bracket-free link parts: `\[[^\]]+\]` rescanned to the end of the line from every "[",
  // 24 s for a line of 250,000 of them.
  const links = outside.filter((l) => /\[[^[\]\n]{1,200}\]\([^()\s]{1,500}\)/.test(l)).length;
  if (headings === 0 || (fences === 0 && links === 0 && headings < 2)) return false;
  const prose = outside.filter(
    (l) => /^#{1,6} /.test(l) === false && l.trim() !== "" && !l.trimStart().startsWith("|"),
  );
  return ratio(prose, (l) => l.split(/\s+/).length >= 5) >= 0.4 && detectLanguage(outside) === undefined;
}

/** Kind of `text`, and JSON value when the text parsed as JSON (internal: avoids a second parse). */
export function detectWithValue(text: string, hint?: string): Detection & { value?: unknown } {
  const hinted = kindFromHint(hint);
  const head = text.length > 262_144 ? text.slice(0, 262_144) : text;
  // Escapes and redraws are cleaned first; the terminal compressor classifies what remains.
  // A lone "\r" at the very end is a CRLF text cut after its "\r", not a redraw.
  if (hinted !== "json" && (ANSI.test(head) || /\r(?!\n|$)/.test(head))) return { kind: "terminal" };
  if (looksJson(text)) {
    try {
      return { kind: "json", value: JSON.parse(text) };
    } catch {
      // not one JSON document: maybe JSON lines, else the hint or the content decides
    }
  }
  const toon = canonicalToon(text);
  if (toon !== undefined) return { kind: "json", value: toon };
  const lines = stripGutters(head.split("\n", SAMPLE_LINES));
  // JSON lines are JSON lines whatever the hint says (`cargo build --message-format=json` names a
  // compiler, but its output is a stream of records).
  if (hinted === "json" || hinted === "ndjson" || isNdjson(lines))
    return { kind: isNdjson(lines) ? "ndjson" : "json" };
  if (hinted === "code") return { kind: "code", ...langOf(lines) };
  if (hinted) return { kind: hinted };
  const kind = classify(lines, head);
  return kind === "code" ? { kind, ...langOf(lines) } : { kind };
}

function langOf(lines: readonly string[]): { language?: string } {
  const language = detectLanguage(lines);
  return language ? { language } : {};
}

/**
 * grep hits (`path:line:text`): 70% of lines, and the (path, line) pairs mostly distinct. A log
 * whose every line opens `name.log.1.2017-05-16_13:53:08 ...` repeats one pair: not grep.
 */
function isGrep(lines: readonly string[]): boolean {
  const pairs = new Set<string>();
  let hits = 0;
  for (const l of lines) {
    const m = GREP_HIT.exec(l);
    if (!m) continue;
    hits++;
    pairs.add(`${m[1]}:${m[2]}`);
  }
  return ratio(lines, (l) => GREP_HIT.test(l)) >= 0.7 && pairs.size >= hits * 0.9;
}

/** diff(1)'s normal format: `12c12` commands, `< ` and `> ` lines, `---` between them. */
function isNormalDiff(lines: readonly string[]): boolean {
  if (!lines.some((l) => NORMAL_DIFF_CMD.test(l))) return false;
  return ratio(lines, (l) => /^([<>] |---$|diff -)/.test(l) || NORMAL_DIFF_CMD.test(l)) >= 0.9;
}

function classify(lines: readonly string[], head: string): ContentKind {
  if (
    lines.some((l) => l.startsWith("diff --git ") || l.startsWith("diff --cc ")) ||
    (/^--- \S/m.test(head) && /^\+\+\+ \S/m.test(head) && /^@@@? -\d/m.test(head)) ||
    isNormalDiff(lines) ||
    isStatListing(lines)
  )
    return "diff";
  if (HTML_START.test(head) || ratio(lines, (l) => /^\s*<\/?[a-z][\w-]*[\s>/]/i.test(l)) >= 0.5)
    return "html";
  if (isNdjson(lines)) return "ndjson";
  if (
    lines.slice(0, 3).some((l) => PYTEST_PROGRESS.test(l)) ||
    ratio(lines, (l) => TEST_LINE.test(l) || pytestResult(l) !== undefined || UNITTEST.test(l)) >= 0.08
  )
    return "test";
  if (
    lines.some((l) => TS_DIAG.test(l) || GCC_DIAG.test(l) || BIOME_DIAG.test(l)) ||
    ratio(lines, (l) => RUST_DIAG.test(l) || ESLINT_ROW.test(l)) >= 0.1 ||
    isJavacDiagnostics(lines) ||
    isRustDiagnostics(lines)
  )
    return "diagnostics";
  // Structure before the line rules below: grep -C's context lines and listings read as text.
  if (isGrepWithContext(lines)) return "grep";
  if (isListingTable(lines)) return "table";
  const frames = ratio(lines, (l) => FRAME.test(l));
  const logs = ratio(lines, (l) => LOG_LINE.test(l));
  if (frames >= 0.3 && logs < 0.3) return "stacktrace";
  if (logs >= 0.5) return "log";
  // grep first: hits of a grep over CSV files hold commas too, but a CSV row is never a hit (a
  // path holds no comma).
  if (isGrep(lines) || isGrepHeading(lines) || isPathList(lines)) return "grep";
  if (isTable(lines)) return "table";
  if (alignedTableStart(lines) >= 0) return "table";
  if (isStructuredLog(lines)) return "log";
  if (isMarkdownTable(lines)) return "table";
  if (isMarkdown(lines)) return "prose";
  if (detectLanguage(lines)) return "code";
  if (isProse(lines)) return "prose";
  return "text";
}

/** Detects the content kind of `text`; `hint` is a ContentKind or the producing tool/command. */
export function detect(text: string, hint?: string): Detection {
  try {
    const { kind, language } = detectWithValue(text, hint);
    return language ? { kind, language } : { kind };
  } catch {
    return { kind: "text" };
  }
}
