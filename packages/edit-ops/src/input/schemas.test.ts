import { describe, expect, it } from "vitest";
import { isEditError } from "../errors.js";
import { batchInput, parseInput, readArgs, replaceArgs, replaceInput } from "./schemas.js";

function refusal(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (isEditError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("parseInput", () => {
  it("refuses a line number given as a string: one rule, the schema's", () => {
    const r = refusal(() =>
      parseInput(replaceInput, { path: "a.ts", start_line: "12", content: "x" }, "replace"),
    );
    expect(r).toEqual({
      code: "invalid_range",
      message: '`start_line` must be a whole line number, got "12"',
    });
    expect(
      refusal(() => parseInput(replaceInput, { path: "a.ts", start_line: 1.5, content: "x" }, "replace"))
        .code,
    ).toBe("invalid_range");
  });

  it("names an unknown key and the accepted ones, at any depth", () => {
    expect(refusal(() => parseInput(replaceInput, { path: "a", start: 2 }, "replace")).message).toBe(
      'unknown key "start" for replace; accepted keys: path, start_line, end_line, old, content, preview, expected_hash, range_hash, new',
    );
    const nested = refusal(() =>
      parseInput(batchInput, { path: "a", edits: [{ content: "x" }, { line: 1 }] }, "batch"),
    );
    expect(nested.message).toContain('unknown key "line" for batch edit 2; accepted keys: start_line,');
    const target = refusal(() => parseInput(readArgs, { path: "a", target: { kind: "class" } }, "read"));
    expect(target).toEqual({
      code: "invalid_argument",
      message: 'target.kind must be one of: function, tag, marker (got "class")',
    });
  });

  it("says what is missing or of the wrong type", () => {
    expect(refusal(() => parseInput(replaceInput, {}, "replace")).message).toBe(
      "`path` is required (a string)",
    );
    expect(refusal(() => parseInput(replaceInput, "a.ts", "replace")).message).toMatch(
      /^replace expects an object with: path,/,
    );
    expect(refusal(() => parseInput(replaceInput, { path: "a", preview: "yes" }, "replace")).message).toBe(
      "`preview` must be true or false, got string",
    );
    expect(refusal(() => parseInput(batchInput, { path: "a", edits: "[]" }, "batch")).message).toBe(
      "`edits` must be an array of edits, not a JSON string",
    );
  });

  it("keeps library-only keys out of the tool arguments", () => {
    expect(parseInput(replaceInput, { path: "a", old: "x", new: "y" }, "replace")).toEqual({
      path: "a",
      old: "x",
      new: "y",
    });
    expect(refusal(() => parseInput(replaceArgs, { path: "a", old: "x", new: "y" }, "replace")).code).toBe(
      "invalid_argument",
    );
  });
});
