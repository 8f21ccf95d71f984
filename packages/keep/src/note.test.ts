import { countTokens } from "@caveman/engine";
import { describe, expect, it } from "vitest";
import { keptHeader, parseKeptHeader, passNote, standIn, startsWithHeader } from "./note.js";

const handle = "ccr_0123456789abcdef0123456789abcdef";

describe("note", () => {
  it("a header parses back to the facts it states", () => {
    const facts = { kind: "log", tokensIn: 96898, tokensOut: 690, handle };
    expect(parseKeptHeader(keptHeader(facts))).toEqual(facts);
  });

  it("a header costs at most 55 o200k tokens with the largest figures", () => {
    const line = keptHeader({ kind: "diagnostics", tokensIn: 9_999_999, tokensOut: 9_999_999, handle });
    expect(countTokens(line)).toBeLessThanOrEqual(55);
  });

  it("a stand-in starts with its header, and only a header line counts", () => {
    const header = keptHeader({ kind: "log", tokensIn: 900, tokensOut: 90, handle });
    expect(startsWithHeader(standIn(header, "body\n"))).toBe(true);
    expect(startsWithHeader(`noise\n${header}`)).toBe(false);
    expect(
      startsWithHeader(
        `[caveman: log compressed, 1 -> 1 tokens; original: caveman_retrieve recovery_handle "ccr_nothex"]`,
      ),
    ).toBe(false);
  });

  it("the pass note names the reason, kind and size", () => {
    expect(passNote({ reason: "below_floor", kind: "text", tokens: 12 })).toBe(
      "[caveman: not compressed (below_floor); text; 12 tokens; no recovery_handle]",
    );
    expect(passNote({ reason: "timeout", kind: "text", tokens: 12, estimated: true })).toContain(
      "about 12 tokens",
    );
  });
});
