// Pages of an original: consecutive, byte-exact pieces that concatenate to the original, each
// costing at most `pageTokens` o200k tokens, so a full retrieve of anything fits a host's result
// limit one page at a time. Pages end after a newline wherever a line fits; a line longer than a
// page is cut by characters, never inside a surrogate pair or a CRLF. The layout depends only on
// (original, pageTokens): page 3 asked today is page 3 asked tomorrow. Each page is counted
// exactly (in pieces measureTokens counts exactly), so the cost of a layout is about one exact
// count of the original plus the recounts of pages that came out too dense for the first cut.
import { EXACT_TOKEN_LIMIT, measureTokens } from "../tokens.js";
import { tick } from "../work.js";

/** The smallest page size `pageOf` accepts; a smaller one is raised to it. */
const MIN_PAGE_TOKENS = 50;

/** One page of an original. */
export interface Page {
  ok: true;
  /** The page's exact text; pages 1..pages concatenate to the original. */
  text: string;
  /** 1-based page number, and how many pages the original has at this page size. */
  page: number;
  pages: number;
  /** Offsets [start, end) of the page in the original (UTF-16 code units). */
  start: number;
  end: number;
  /** 1-based lines the page starts and ends on (a cut line is named on both of its pages). */
  firstLine: number;
  lastLine: number;
  /** o200k tokens of `text`. */
  tokens: number;
}

/** A page number outside 1..pages. */
export interface NoPage {
  ok: false;
  page: number;
  pages: number;
}

/**
 * o200k tokens of `text`, counted exactly in pieces of at most EXACT_TOKEN_LIMIT characters cut
 * after newlines (measureTokens estimates above that size; a page must be counted, not guessed).
 * Cutting can only add a token or so per piece, so the sum bounds the whole from above.
 */
function countPage(text: string): number {
  if (text.length <= EXACT_TOKEN_LIMIT) return measureTokens(text).tokens;
  let total = 0;
  for (let at = 0; at < text.length; ) {
    const end = endBefore(text, at, Math.min(text.length, at + EXACT_TOKEN_LIMIT));
    total += measureTokens(text.slice(at, end)).tokens;
    at = end;
  }
  return total;
}

/** True when a cut at `at` would split a surrogate pair or a CRLF. */
function badCut(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) return true;
  return before === 13 && after === 10;
}

/** The best end for a page from `start` no later than `limit` (> start): after a newline, else a safe cut. */
function endBefore(text: string, start: number, limit: number): number {
  if (limit >= text.length) return text.length;
  const nl = text.lastIndexOf("\n", limit - 1);
  if (nl >= start) return nl + 1;
  let at = limit;
  while (at > start + 1 && badCut(text, at)) at--;
  return at;
}

/**
 * The end of the page that starts at `start`. The first cut guesses from `charsPerToken` (the
 * previous page's density), so most pages are counted once.
 */
function pageEnd(
  text: string,
  start: number,
  pageTokens: number,
  charsPerToken: number,
): { end: number; tokens: number } {
  const guess = Math.max(1, Math.floor(pageTokens * charsPerToken * 0.97));
  let end = endBefore(text, start, Math.min(text.length, start + guess));
  for (;;) {
    const chars = end - start;
    tick(chars);
    const tokens = countPage(text.slice(start, end));
    if (tokens <= pageTokens || chars <= 1) return { end, tokens };
    // Shrink in proportion, a little under, so one recount usually settles it.
    const target = start + Math.max(1, Math.floor((chars * pageTokens * 0.97) / tokens));
    const next = endBefore(text, start, Math.min(target, end - 1));
    end = next > start ? next : start + 1;
  }
}

/** Where each page starts (then the original's length), and each page's tokens. */
function layout(text: string, pageTokens: number): { starts: number[]; tokens: number[] } {
  const starts = [0];
  const tokens: number[] = [];
  if (pageTokens === Number.POSITIVE_INFINITY)
    return { starts: [0, text.length], tokens: [measureTokens(text).tokens] };
  let at = 0;
  let density = 4;
  while (at < text.length) {
    const { end, tokens: t } = pageEnd(text, at, pageTokens, density);
    tokens.push(t);
    if (t > 0) density = (end - at) / t;
    at = end;
    starts.push(at);
  }
  if (tokens.length === 0) {
    tokens.push(0);
    starts.push(0);
  }
  return { starts, tokens };
}

/** 1-based line number of offset `at`. */
function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** A page size as asked, made whole and at least MIN_PAGE_TOKENS. */
function pageSize(pageTokens: number): number {
  if (pageTokens === Number.POSITIVE_INFINITY) return pageTokens;
  return Number.isFinite(pageTokens) ? Math.max(MIN_PAGE_TOKENS, Math.floor(pageTokens)) : MIN_PAGE_TOKENS;
}

/**
 * Page `page` (1-based) of `original` cut into pieces of at most `pageTokens` o200k tokens
 * (at least MIN_PAGE_TOKENS). An empty original is one empty page.
 */
export function pageOf(original: string, page: number, pageTokens: number): Page | NoPage {
  const { starts, tokens } = layout(original, pageSize(pageTokens));
  const pages = tokens.length;
  if (!Number.isInteger(page) || page < 1 || page > pages) return { ok: false, page, pages };
  const start = starts[page - 1]!;
  const end = starts[page]!;
  const firstLine = lineAt(original, start);
  const text = original.slice(start, end);
  let inside = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < text.length - 1; i = text.indexOf("\n", i + 1)) inside++;
  return {
    ok: true,
    text,
    page,
    pages,
    start,
    end,
    firstLine,
    lastLine: firstLine + inside,
    tokens: tokens[page - 1]!,
  };
}

/** The page (1-based) that holds offset `at` of `original`. */
export function pageAt(original: string, at: number, pageTokens: number): number {
  const { starts } = layout(original, pageSize(pageTokens));
  let page = 1;
  while (page < starts.length - 1 && starts[page]! <= at) page++;
  return page;
}
