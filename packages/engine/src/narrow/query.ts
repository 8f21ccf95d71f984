// What a retrieve query asks for, read the way people write them. Structural forms first: a line
// span (`lines:120-180`, `lines 120-180`, `L120-180`, `line:7`), a marker line pasted whole (its
// span), `page:N` (a byte-exact page of the original). Then a search: `/regex/flags`, or text
// (exact, then words). A search may end in ` page:N` for the Nth page of its matches. Whether a
// query starting with `/` is a JSON pointer depends on the original, so `narrow` decides that.

/** A line span, 1-based inclusive, as asked (not yet clamped to the original). */
interface SpanQuery {
  form: "lines";
  from: number;
  to: number;
}

/** A byte-exact page of the whole original. */
interface PageQuery {
  form: "page";
  page: number;
}

/** A search; `page` is the page of its matches (1 when not asked). */
export interface SearchQuery {
  form: "search";
  text: string;
  page: number;
  regex?: { source: string; flags: string };
}

export type Query = SpanQuery | PageQuery | SearchQuery;

const LINES_QUERY = /^(?:lines?\s*:?\s*|l)(\d+)(?:\s*-\s*(\d+))?$/i;
// The run form `lines a-b elided`, the region form `N of lines a-b elided`, and the long form
// `N units elided (lines a-b)` (also what a view's "more" marker writes: `N matches skipped (lines a-b)`).
const MARKER_SPAN =
  /^\s*"?\[caveman: (?:(?:\d+ of )?lines? (\d+)(?:-(\d+))? |\d+ \w+ \w+ \(lines? (\d+)(?:-(\d+))?\))/;
const PAGE_ONLY = /^page\s*:\s*(\d+)$/i;
const PAGE_SUFFIX = /^([\s\S]*\S)\s+page\s*:\s*(\d+)$/i;
const REGEX_FORM = /^\/([\s\S]+)\/([a-z]*)$/;

/** Reads a trimmed, non-empty query. */
export function parseQuery(q: string): Query {
  const span = LINES_QUERY.exec(q);
  if (span) return { form: "lines", from: Number(span[1]), to: Number(span[2] ?? span[1]) };
  const marker = MARKER_SPAN.exec(q);
  if (marker) {
    const from = Number(marker[1] ?? marker[3]);
    return { form: "lines", from, to: Number(marker[2] ?? marker[4] ?? from) };
  }
  const page = PAGE_ONLY.exec(q);
  if (page) return { form: "page", page: Number(page[1]) };
  const paged = PAGE_SUFFIX.exec(q);
  const text = paged ? paged[1]! : q;
  const n = paged ? Number(paged[2]) : 1;
  const re = REGEX_FORM.exec(text);
  if (re && /^[gimsuy]*$/.test(re[2]!))
    return { form: "search", text, page: n, regex: { source: re[1]!, flags: re[2]! } };
  return { form: "search", text, page: n };
}

/** The query that asks for page `page` of the same search. */
export function pagedQuery(text: string, page: number): string {
  return `${text} page:${page}`;
}

// A line of a view this engine wrote (`12:text`, `12-text`, `--`): pasted back, it means its text.
const VIEW_LINE = /^(\d+)[:-]/;

/**
 * The query with the `N:`/`N-` prefixes and `--` separators of a pasted narrow view taken off,
 * or undefined when it is not such a paste (so a search for `404-page` stays as written).
 */
export function unpasteView(text: string): string | undefined {
  const lines = text.split("\n");
  if (!lines.every((l) => l === "--" || l.trim() === "" || VIEW_LINE.test(l))) return undefined;
  const kept = lines.filter((l) => l !== "--").map((l) => l.replace(VIEW_LINE, ""));
  const out = kept.join("\n").trim();
  return out === "" || out === text ? undefined : out;
}
