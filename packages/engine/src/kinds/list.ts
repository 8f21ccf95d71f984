// The kinds of content the engine recognises: one list, from which ContentKind, the hints
// (hints.ts) and the bench derive theirs. Each has a compressor in kinds/<kind>/ and a case in
// dispatch.ts; "text" is the fallback when nothing else fits.

/** Every ContentKind, in the order detection prefers them. */
export const CONTENT_KINDS = [
  "json",
  "ndjson",
  "log",
  "stacktrace",
  "test",
  "diagnostics",
  "grep",
  "diff",
  "code",
  "table",
  "html",
  "terminal",
  "prose",
  "text",
] as const;

/** Kinds of content the engine recognises. */
export type ContentKind = (typeof CONTENT_KINDS)[number];
