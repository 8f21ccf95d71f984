// Prose and markdown, by the caveman rules: drop articles, filler, pleasantries, hedges and
// copulas; keep every negation (not, never, no, only, except), number, unit, name, code span,
// URL and path exactly. Headings, tables, HTML, fenced and indented code pass untouched.
// Words are dropped inside lines, with no marker; a long document with headings also folds the
// rest of each section after its first lines into a marker (sections.ts).
import { renderKept } from "../../lines.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { sectionKeep } from "./sections.js";

const DROP = new Set([
  "a",
  "an",
  "the",
  "just",
  "really",
  "very",
  "basically",
  "actually",
  "simply",
  "quite",
  "rather",
  "somewhat",
  "literally",
  "totally",
  "essentially",
  "definitely",
  "certainly",
  "obviously",
  "clearly",
  "truly",
  "honestly",
  "fairly",
  "pretty",
  "extremely",
  "incredibly",
  "please",
  "kindly",
  "thanks",
  "hello",
  "hi",
  "hey",
  "perhaps",
  "maybe",
  "possibly",
  "probably",
  "arguably",
  "likely",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "being",
  "am",
  "that",
  "which",
  "also",
  "so",
  "then",
  "there",
  "here",
  // Not "all", "some", "any", "only": quantifiers change what a sentence claims.
]);
// Word pairs and triples that carry nothing on their own.
const PHRASES =
  /\b(i think|i believe|i guess|it seems(?: that)?|sort of|kind of|of course|in order(?= to\b)|as you can see|note that|feel free to|thank you|you can|you will need to|you need to|you should|we will|we can|let's|it is|it's)\s+/gi;
// Never touched: code spans, links, URLs, paths, numbers with units, negations are just not in DROP.
// Each alternative is linear: an opener never re-matches inside its own span (`<<<<`, `[[[[`
// and 60,000-character words without a digit were quadratic), and a protected word is matched
// only from its first character (the lookbehind).
const PROTECT = /`[^`]*`|\[[^[\]]*\]\([^()\s]*\)|<[^<>]+>|https?:\/\/\S+|(?<!\S)\S*[/\d]\S*/g;

function cavemanLine(line: string): string {
  const indent = /^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)*/.exec(line)![0];
  const body = line.slice(indent.length);
  // The private-use characters below mask protected spans; a line that holds them stays as it is.
  if (body.includes("\uE000") || body.includes("\uE001")) return line;
  const protectedSpans: string[] = [];
  const masked = body.replace(PROTECT, (m) => {
    protectedSpans.push(m);
    return `\uE000${protectedSpans.length - 1}\uE001`;
  });
  const words: string[] = [];
  for (const w of masked.replace(PHRASES, "").split(/\s+/)) {
    if (w === "") continue;
    const core = w.toLowerCase().replace(/^[("'*_]+|[)"'*_,.;:!?]+$/g, "");
    if (!DROP.has(core)) {
      words.push(w);
      continue;
    }
    // A dropped word's sentence punctuation stays on the word before it.
    const punct = /[,.;:!?]+$/.exec(w)?.[0];
    if (punct && words.length > 0) words[words.length - 1] += punct;
  }
  const restored = words
    .join(" ")
    .replace(/\uE000(\d+)\uE001/g, (_, k: string) => protectedSpans[Number(k)]!);
  return restored === "" ? line.trimEnd() : indent + restored;
}

/** Compresses prose by the caveman rules, or says why it cannot. */
export function compressProse(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  let fence: string | undefined;
  let prevBlank = true;
  const out = lines.map((line) => {
    const trimmed = line.trimStart();
    const fenceMatch = /^(```|~~~)/.exec(trimmed);
    if (fence) {
      if (fenceMatch && trimmed.startsWith(fence)) fence = undefined;
      return line;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      return line;
    }
    const blank = trimmed === "";
    const verbatim = blank || /^(#{1,6}\s|\||<|!\[)/.test(trimmed) || (prevBlank && /^( {4}|\t)/.test(line));
    prevBlank = blank;
    if (verbatim) return line;
    // A CRLF line keeps its CR: the rewrite splits on whitespace and would drop it.
    return line.endsWith("\r") ? `${cavemanLine(line.slice(0, -1))}\r` : cavemanLine(line);
  });
  // A long document also folds by section (sections.ts), over the rewritten lines: markers
  // name spans of the input, which the rewrite leaves line for line.
  const keep = sectionKeep(lines, ctx.query);
  const output = keep ? renderKept(out, keep, ctx.handle ? { handle: ctx.handle } : {}) : out.join("\n");
  return output === text ? "not_smaller" : { output, lossless: false };
}
