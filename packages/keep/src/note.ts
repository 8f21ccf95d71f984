// The one note format the model reads about a compression (issue 29: one owner). A stand-in is
// its header line, then the compressed body: the header comes first so that a host preview or a
// cut of the middle (Claude Code keeps ~2 KB of a long output) still shows the way back. A text
// that passed through gets the pass note instead, after it. Nothing else builds these lines; the
// engine's markers inside a body are the engine's own grammar.

/** The tool that brings an original back, and its argument: named here once for every caller. */
export const RETRIEVE_TOOL = "caveman_retrieve";
export const RETRIEVE_ARG = "recovery_handle";

/** What a header says: the kind, the token figures, the handle. */
export interface HeaderFacts {
  kind: string;
  tokensIn: number;
  tokensOut: number;
  handle: string;
}

/** The first line of every stand-in. */
export function keptHeader(f: HeaderFacts): string {
  return `[caveman: ${f.kind} compressed, ${f.tokensIn} -> ${f.tokensOut} tokens; original: ${RETRIEVE_TOOL} ${RETRIEVE_ARG} "${f.handle}" (query: words, /regex/ or lines:a-b)]`;
}

/** The stand-in: header, newline, body (a body's own final newline is kept as it was). */
export function standIn(header: string, body: string): string {
  return `${header}\n${body}`;
}

const HEADER =
  /^\[caveman: ([a-z]+) compressed, (\d+) -> (\d+) tokens; original: caveman_retrieve recovery_handle "(ccr_[0-9a-f]{32})" [^\n]*\]\r?$/;

/** The facts of a header line, or null when the line is not one. */
export function parseKeptHeader(line: string): HeaderFacts | null {
  const m = HEADER.exec(line);
  if (!m) return null;
  return { kind: m[1]!, tokensIn: Number(m[2]), tokensOut: Number(m[3]), handle: m[4]! };
}

/** True when `text` is a stand-in already: its first line is a header. */
export function startsWithHeader(text: string): boolean {
  const end = text.indexOf("\n");
  return parseKeptHeader(end < 0 ? text : text.slice(0, end)) !== null;
}

/** Why a text was left as it is, for callers that say so (the compress tool). */
export interface PassFacts {
  reason: string;
  kind: string;
  tokens: number;
  estimated?: boolean;
}

export function passNote(p: PassFacts): string {
  return `[caveman: not compressed (${p.reason}); ${p.kind}; ${p.estimated ? "about " : ""}${p.tokens} tokens; no ${RETRIEVE_ARG}]`;
}

/** Under the header of a file Read cut short: the stand-in is of the whole file, and which lines Read had shown. */
export function readCutNote(startLine: number, shown: number, total: number): string {
  return `[caveman: this view is of the whole file (${total} lines); Read had returned lines ${startLine}-${startLine + shown - 1} only]`;
}
