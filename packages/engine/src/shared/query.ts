// The search terms of a query, as every compressor that keeps query matches reads them.

/** Lower-case search terms of a query (2+ characters). */
export function queryTerms(query: string | undefined): string[] {
  if (!query) return [];
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.@/-]+/u)
    .filter((t) => t.length >= 2);
}
