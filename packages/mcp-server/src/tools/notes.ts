// The notes the server's own tools put after their text, one line each: what a retrieve returned
// and why, and a TOON conversion's sizes. Written only here, so the server has one module for the
// `[caveman: …]` lines the model reads; a stand-in's header and the pass note are
// `@caveman/keep/note`'s, and the markers inside a compressed body are the engine's.

const note = (body: string): string => `[caveman: ${body}]`;

/** The engine's own note on a page or a view (it says what was left out and how to ask). */
export function viewNote(engineNote: string): string {
  return note(engineNote);
}

/** Narrowing or paging failed (`what` `why`) and the original fits a page, so it comes back whole. */
export function wholeAfterFailure(what: string, why: string): string {
  return note(`${what} ${why}; returning the full original`);
}

/** Narrowing or paging failed on an original over one page: nothing but this line comes back. */
export function overPageAfterFailure(what: string, why: string, chars: number, next: string): string {
  return note(`${what} ${why}; the original is ${chars} characters, over one page; ${next}`);
}

/** The session already returned this (`what`) of `handle`, in retrieve number `callNo`. */
export function alreadyReturned(what: string, handle: string, callNo: number): string {
  return note(
    `${what} of ${handle} was already returned in this session (retrieve #${callNo}); see that result above`,
  );
}

/** Past the distinct-query limit on `handle`, the small original comes back whole. */
export function wholeAfterQueries(limit: number, handle: string): string {
  return note(`more than ${limit} distinct queries on ${handle}; returning the full original`);
}

interface Sizes {
  bytesIn: number;
  bytesOut: number;
  tokensIn: number;
  tokensOut: number;
}

/** A TOON conversion's sizes (`what`: "TOON" or "JSON"). */
export function sizesNote(what: string, r: Sizes): string {
  return note(`${what}; ${r.bytesIn} -> ${r.bytesOut} bytes; ${r.tokensIn} -> ${r.tokensOut} tokens`);
}

/** Encode passed its input through (`why`), with the input's size. */
export function notEncodedNote(why: string, bytes: number, tokens: string): string {
  return note(`not encoded (${why}); input returned unchanged; ${bytes} bytes; ${tokens} tokens`);
}
