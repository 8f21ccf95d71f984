import { describe, expect, it } from "vitest";
import { formatJsonMarker, formatMarker, isMarkerLine, nameHandleOnce, plural } from "./markers.js";

describe("marker grammar", () => {
  it("formats count, span, facts and the caller's handle on one line", () => {
    const m = formatMarker({
      count: 3,
      unit: "hit",
      where: "lines 4-9",
      facts: ["a x2, b x1"],
      handle: "ccr_ab",
    });
    expect(m).toBe("[caveman: 3 hits elided (lines 4-9); a x2, b x1; retrieve ccr_ab]");
    // One unit per line of the span: the span is the count, written once.
    expect(formatMarker({ count: 3, unit: "line", where: "lines 4-6", facts: ["a x2, b x1"] })).toBe(
      "[caveman: lines 4-6 elided; a x2, b x1]",
    );
    expect(formatMarker({ count: 1, unit: "row", where: "line 7" })).toBe("[caveman: line 7 elided]");
    expect(formatMarker({ count: 1, unit: "hit" })).toBe("[caveman: 1 hit elided]");
    expect(formatMarker({ count: 2, unit: "unit", verb: "skipped" })).toBe("[caveman: 2 units skipped]");
  });

  it("never puts a newline inside a marker", () => {
    const m = formatMarker({ count: 2, unit: "item", facts: ["x\ny", "z\r\nw"] });
    expect(m.includes("\n")).toBe(false);
    expect(isMarkerLine(m)).toBe(true);
  });

  it("recognises plain, indented and JSON-string markers, and nothing else", () => {
    expect(isMarkerLine("[caveman: 3 lines elided]")).toBe(true);
    expect(isMarkerLine("    [caveman: 3 lines elided (lines 4-6)]")).toBe(true);
    expect(isMarkerLine(`  ${formatJsonMarker({ count: 2, unit: "item", facts: ['role "x"'] })},`)).toBe(
      true,
    );
    expect(isMarkerLine("[caveman: ]")).toBe(true);
    expect(isMarkerLine("[cavemen: 3 lines elided]")).toBe(false);
    expect(isMarkerLine("text [caveman: 3 lines elided]")).toBe(false);
    expect(isMarkerLine("")).toBe(false);
  });

  it("pluralises unit names", () => {
    expect(plural(1, "entry")).toBe("1 entry");
    expect(plural(2, "entry")).toBe("2 entries");
    expect(plural(2, "match")).toBe("2 matches");
  });

  it("names the handle once per output, on the marker standing for the most", () => {
    const h = "ccr_0123";
    const text = [
      "keep",
      `[caveman: lines 2-3 elided; x; retrieve ${h}]`,
      "keep",
      `[caveman: lines 5-90 elided; y; retrieve ${h}]`,
      `  "[caveman: 12 items elided (2-13 of 40 at /a); retrieve ${h}]",`,
    ].join("\n");
    expect(nameHandleOnce(text, h)).toBe(
      [
        "keep",
        "[caveman: lines 2-3 elided; x]",
        "keep",
        `[caveman: lines 5-90 elided; y; retrieve ${h}]`,
        '  "[caveman: 12 items elided (2-13 of 40 at /a)]",',
      ].join("\n"),
    );
    expect(nameHandleOnce(text, undefined)).toBe(text);
  });

  it("leaves the handle alone in kept text that is not a marker line", () => {
    // A kept JSON value or log line may quote an earlier marker; only our marker lines lose it.
    const h = "ccr_0123";
    const text = [
      `  "[caveman: lines 5-90 elided; retrieve ${h}]",`,
      `{"id":150,"note":"see [caveman: 3 items elided; retrieve ${h}]"},`,
      `[caveman: lines 2-3 elided; retrieve ${h}]`,
    ].join("\n");
    expect(nameHandleOnce(text, h)).toBe(
      [
        `  "[caveman: lines 5-90 elided; retrieve ${h}]",`,
        `{"id":150,"note":"see [caveman: 3 items elided; retrieve ${h}]"},`,
        "[caveman: lines 2-3 elided]",
      ].join("\n"),
    );
  });
});
