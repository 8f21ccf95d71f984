import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measureTokens } from "../tokens.js";
import { pageAt, pageOf } from "./page.js";

/** Every page of `text`, in order. */
function pages(text: string, size: number): string[] {
  const out: string[] = [];
  for (let p = 1; ; p++) {
    const page = pageOf(text, p, size);
    if (!page.ok) return out;
    out.push(page.text);
  }
}

// Lines that stress the cut points: CRLF, astral characters (surrogate pairs), long runs, empty lines.
const piece = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("\r\n", "\n", "😀", "\ud83d", "é", "\t", "    ", "0123456789"),
  fc.integer({ min: 100, max: 3000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 50, max: 800 }).map((n) => "😀".repeat(n)),
);
const text = fc.array(piece, { maxLength: 60 }).map((p) => p.join(""));

describe("pageOf", () => {
  it("cuts any text into pages that concatenate to it exactly, each within the page size", () => {
    fc.assert(
      fc.property(text, fc.constantFrom(50, 120, 1000), (t, size) => {
        const all = pages(t, size);
        expect(all.join("")).toBe(t);
        for (const p of all) expect(measureTokens(p).tokens).toBeLessThanOrEqual(size);
        // No cut splits a surrogate pair or a CRLF.
        for (let i = 1; i < all.length; i++) {
          const end = all[i - 1]!.charCodeAt(all[i - 1]!.length - 1);
          const start = all[i]!.charCodeAt(0);
          expect(end >= 0xd800 && end <= 0xdbff && start >= 0xdc00 && start <= 0xdfff).toBe(false);
          expect(end === 13 && start === 10).toBe(false);
        }
      }),
      propertyParams(200),
    );
  });

  it("ends pages after a newline wherever a line fits, and says which lines each page holds", () => {
    const log = Array.from(
      { length: 3000 },
      (_, i) => `2026-01-01 INFO request ${i} served in ${i % 97} ms`,
    ).join("\n");
    const first = pageOf(log, 1, 2000);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.text.endsWith("\n")).toBe(true);
    expect(first).toMatchObject({ page: 1, firstLine: 1, start: 0 });
    const second = pageOf(log, 2, 2000);
    if (!second.ok) throw new Error("no page 2");
    expect(second.firstLine).toBe(first.lastLine + 1);
    expect(second.start).toBe(first.end);
    expect(pageAt(log, second.start, 2000)).toBe(2);
    expect(pageAt(log, second.start - 1, 2000)).toBe(1);
  });

  it("lays out the same pages whichever page is asked first", () => {
    const log = Array.from({ length: 2000 }, (_, i) => `line ${i} ${"ab".repeat(i % 40)}`).join("\n");
    const third = pageOf(log, 3, 500);
    pageOf(log, 1, 500);
    expect(pageOf(log, 3, 500)).toEqual(third);
  });

  it("answers a page outside the range with the page count, and an empty text with one empty page", () => {
    expect(pageOf("abc", 2, 100)).toEqual({ ok: false, page: 2, pages: 1 });
    expect(pageOf("abc", 0, 100)).toMatchObject({ ok: false });
    expect(pageOf("", 1, 100)).toMatchObject({ ok: true, text: "", pages: 1 });
  });

  it("raises a page size below the minimum, and keeps an infinite one as one page", () => {
    const t = "word ".repeat(2000);
    const p = pageOf(t, 1, 1);
    expect(p.ok && p.tokens).toBeLessThanOrEqual(50);
    expect(pageOf(t, 1, Number.POSITIVE_INFINITY)).toMatchObject({ ok: true, pages: 1, text: t });
  });
});
