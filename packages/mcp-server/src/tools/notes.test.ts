import { describe, expect, it } from "vitest";
import {
  alreadyReturned,
  notEncodedNote,
  overPageAfterFailure,
  sizesNote,
  viewNote,
  wholeAfterFailure,
  wholeAfterQueries,
} from "./notes.js";

const handle = `ccr_${"a".repeat(32)}`;

describe("tool notes", () => {
  it("are one bracketed caveman line each, worded as the model has always read them", () => {
    expect(viewNote('page 1 of 7 (lines 1-2400); next: "page:2"')).toBe(
      '[caveman: page 1 of 7 (lines 1-2400); next: "page:2"]',
    );
    expect(wholeAfterFailure("narrowing by this query", "took longer than 4000 ms")).toBe(
      "[caveman: narrowing by this query took longer than 4000 ms; returning the full original]",
    );
    expect(overPageAfterFailure("paging the original", "failed (boom)", 90_000, "try again later")).toBe(
      "[caveman: paging the original failed (boom); the original is 90000 characters, over one page; try again later]",
    );
    expect(alreadyReturned("this exact retrieve", handle, 3)).toBe(
      `[caveman: this exact retrieve of ${handle} was already returned in this session (retrieve #3); see that result above]`,
    );
    expect(wholeAfterQueries(5, handle)).toBe(
      `[caveman: more than 5 distinct queries on ${handle}; returning the full original]`,
    );
    expect(sizesNote("TOON", { bytesIn: 120, bytesOut: 80, tokensIn: 40, tokensOut: 25 })).toBe(
      "[caveman: TOON; 120 -> 80 bytes; 40 -> 25 tokens]",
    );
    expect(notEncodedNote("json_invalid: Unexpected token", 12, "about 3")).toBe(
      "[caveman: not encoded (json_invalid: Unexpected token); input returned unchanged; 12 bytes; about 3 tokens]",
    );
  });
});
