import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../doc/lines.js";
import { normalizedText } from "./match.js";
import { formatNearMisses, nearMisses, nearMissWork } from "./nearmiss.js";

function prepare(text: string) {
  const doc = { bom: false, ...splitLines(text) };
  const hay = normalizedText(doc);
  const starts = [0];
  for (let i = 0; i < doc.lines.length; i++) starts.push(starts[i]! + doc.lines[i]!.length + 1);
  return { doc, hay, starts };
}

function big(n: number): string {
  let t = "";
  for (let i = 1; i <= n; i++) t += `export const value${i} = computeSomething(${i}, "item ${i}");\n`;
  return t;
}

describe("near-miss diagnostics", () => {
  it("finds a one-character typo in a 100,000-line file with bounded work", () => {
    const { doc, hay, starts } = prepare(big(100_000));
    const near = nearMisses(
      doc,
      hay,
      starts,
      'export const value77777 = computeSomethign(77777, "item 77777");\n',
    );
    expect(near[0]).toMatchObject({ start_line: 77777, end_line: 77777, kind: "text" });
    expect(near[0]!.similarity).toBeGreaterThan(0.95);
    expect(near[0]!.detail).toMatch(/^line 77777 col 41: file …"/);
    expect(nearMissWork.scans).toBeLessThanOrEqual(14);
    expect(nearMissWork.candidates).toBeLessThanOrEqual(12);
    expect(nearMissWork.cells).toBeLessThanOrEqual(12 * 400 * 400);
  });

  it("stays bounded when every word of the needle is everywhere in the file", () => {
    const { doc, hay, starts } = prepare(big(100_000));
    const needle = Array.from({ length: 500 }, () => 'export const = computeSomething("item");').join("\n");
    nearMisses(doc, hay, starts, needle);
    expect(nearMissWork.scans).toBeLessThanOrEqual(14);
    expect(nearMissWork.candidates).toBeLessThanOrEqual(12);
  });

  it("names a whitespace-only difference and shows it", () => {
    const { doc, hay, starts } = prepare("a\n\tif (x) {\n\t\ty();\n\t}\nb\n");
    const [c] = nearMisses(doc, hay, starts, "    if (x) {\n        y();\n");
    expect(c).toMatchObject({ start_line: 2, end_line: 3, kind: "whitespace" });
    expect(formatNearMisses([c!])).toBe(
      '\nclosest:\n- lines 2-3, only whitespace differs; line 2 col 1: file "\\tif (x) {\\n\\t\\ty();" vs old "    if (x) {\\n        y()"…',
    );
  });

  it("names a line-ending-only difference: old ends with a newline the file's last line lacks", () => {
    const { doc, hay, starts } = prepare("one\ntwo\nlast line");
    const [c] = nearMisses(doc, hay, starts, "two\nlast line\n");
    expect(c).toMatchObject({ start_line: 2, end_line: 3, kind: "line_endings" });
    expect(c!.detail).toContain("last line (3) has no newline");
  });

  it("finds text that starts mid-line and gives the file's column", () => {
    const { doc, hay, starts } = prepare('x\nconst label = computeLabel(total, "items");\n');
    const [c] = nearMisses(doc, hay, starts, 'computeLabl(total, "items")');
    expect(c).toMatchObject({ start_line: 2, kind: "text" });
    expect(c!.detail).toMatch(/^line 2 col 25: /);
  });

  it("points at the typo when indentation differs too, and names the whitespace difference", () => {
    const { doc, hay, starts } = prepare("x\n\tfor (const a of b) {\n\t\tsum += a.quantity;\n\t}\n");
    const [c] = nearMisses(doc, hay, starts, "    for (const a of b) {\n        sum += a.qty;\n");
    expect(c).toMatchObject({ start_line: 2, end_line: 3, kind: "text" });
    expect(c!.detail).toBe(
      'line 3 col 13: file "\\t\\tsum += a.quantity;" vs old "        sum += a.qty;"; whitespace differs too (line 2 col 1)',
    );
  });

  it("offers nothing rather than noise when nothing is close", () => {
    const { doc, hay, starts } = prepare(big(50));
    expect(nearMisses(doc, hay, starts, "completely unrelated words here")).toEqual([]);
  });

  it("never throws and only names lines that exist, whatever the file and the needle", () => {
    const text = fc.stringMatching(/^[ab \t\r\n{}();=x1-3]{0,120}$/);
    fc.assert(
      fc.property(text, text, (file, needle) => {
        const { doc, hay, starts } = prepare(file);
        const near = nearMisses(doc, hay, starts, needle.replace(/\r\n/g, "\n"));
        expect(near.length).toBeLessThanOrEqual(3);
        for (const c of near) {
          expect(c.start_line).toBeGreaterThanOrEqual(1);
          expect(c.end_line).toBeGreaterThanOrEqual(c.start_line);
          expect(c.end_line).toBeLessThanOrEqual(doc.lines.length);
          expect(c.similarity).toBeGreaterThanOrEqual(0);
          expect(c.similarity).toBeLessThanOrEqual(1);
          expect(c.detail.length).toBeLessThan(400);
        }
      }),
      propertyParams(400),
    );
  });
});
