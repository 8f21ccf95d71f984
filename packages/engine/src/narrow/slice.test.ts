import { describe, expect, it } from "vitest";
import { narrow } from "../narrow.js";
import { ALL, LOG, tokens } from "./log.test-helpers.js";

describe("narrow: structural queries keep their slice, held to the budget", () => {
  it("returns exactly the requested lines for lines:a-b", () => {
    const v = narrow(LOG, "lines:3-5");
    expect(v).toMatchObject({ full: false, unitsShown: 3, matches: 3 });
    expect(v.output).toBe(LOG.split("\n").slice(2, 5).join("\n"));
    expect(narrow(LOG, "lines:1-999999999", ALL).output).toBe(LOG);
  });

  it("shows as many whole lines as fit, then names the rest as a lines: query", () => {
    const v = narrow(LOG, "lines:1-301");
    expect(tokens(v.output)).toBeLessThanOrEqual(400);
    const lines = v.output.split("\n");
    const marker = lines.pop()!;
    expect(LOG.startsWith(lines.join("\n"))).toBe(true);
    const from = lines.length + 1;
    expect(marker).toBe(
      `[caveman: lines ${from}-301 skipped; over the 400-token view; next: "lines:${from}-301"]`,
    );
    expect(narrow(LOG, `lines:${from}-301`).output.split("\n")[0]).toBe(LOG.split("\n")[from - 1]);
  });

  it("says a span outside the original is outside, without returning the original", () => {
    const v = narrow(LOG, "lines:5000-5010");
    expect(v).toMatchObject({ full: false, matches: 0 });
    expect(v.output).toBe("[caveman: 301 lines skipped; lines 5000-5010 is outside lines 1-301]");
  });

  it("takes the span of a marker as a query: lines 12-80, L12-80, or a run or region marker pasted whole", () => {
    const want = LOG.split("\n").slice(11, 80).join("\n");
    for (const q of [
      "lines 12-80",
      "L12-80",
      "lines:12-80",
      "[caveman: lines 12-80 elided; INFO like line 4 x69]",
      "[caveman: 61 of lines 12-80 elided; WARN like line 40 x3; INFO x58; retrieve ccr_ab]",
      '[caveman: 69 matches skipped (lines 12-80); next: "INFO page:2"]',
    ])
      expect(narrow(LOG, q, ALL).output, q).toBe(want);
    expect(narrow(LOG, "[caveman: 3 hits elided (lines 12-14); a.ts x3]").output).toBe(
      LOG.split("\n").slice(11, 14).join("\n"),
    );
  });

  it("returns the exact bytes a JSON pointer names, and what a pointer that does not resolve runs into", () => {
    const json = JSON.stringify(
      { items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}` })) },
      null,
      2,
    );
    const v = narrow(json, "/items/42");
    expect(JSON.parse(v.output)).toEqual({ id: 42, name: "n42" });
    expect(json).toContain(v.output);
    const miss = narrow(json, "/items/500");
    expect(miss.full).toBe(false);
    expect(miss.output).toBe(
      "[caveman: lines 1-204 skipped; /items/500 does not resolve; /items is an array of 50]",
    );
  });

  it("holds a big pointer value to the budget with a lines: query for the rest", () => {
    const json = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i })) }, null, 2);
    const v = narrow(json, "/items");
    expect(tokens(v.output)).toBeLessThanOrEqual(400);
    expect(v.output.split("\n").at(-1)).toMatch(
      /^\[caveman: lines \d+-\d+ skipped; over the 400-token view; next: "lines:\d+-\d+"\]$/,
    );
  });

  it("cuts a first line too long for the budget by characters and names the page holding the rest", () => {
    const line = "word ".repeat(20_000);
    const v = narrow(line, "lines:1");
    expect(tokens(v.output)).toBeLessThanOrEqual(400);
    const [head, marker] = v.output.split("\n");
    expect(line.startsWith(head!)).toBe(true);
    expect(marker).toMatch(
      /^\[caveman: \d+ characters skipped \(line 1 from character \d+\); over the 400-token view; next: "page:1"\]$/,
    );
  });

  it("narrows a JSON array of 200,000 records to the matching one", () => {
    const records = Array.from({ length: 200_000 }, (_, i) => ({
      id: i,
      name: i === 777 ? "needle" : "hay",
    }));
    const v = narrow(JSON.stringify(records), "needle");
    expect(v.full).toBe(false);
    expect(v.matches).toBe(1);
    expect(v.output).toContain('{"id":777,"name":"needle"}');
    expect(v.output).toContain("at /777/name");
  });
});

describe("narrow: page:N", () => {
  it("returns byte-exact pages that concatenate to the original, with where each sits in the note", () => {
    let all = "";
    const first = narrow(LOG, "page:1", { pageTokens: 1000 });
    expect(first.note).toMatch(/^page 1 of (\d+) \(lines 1-\d+\); next: "page:2"$/);
    const pages = first.unitsTotal;
    for (let p = 1; p <= pages; p++) all += narrow(LOG, `page:${p}`, { pageTokens: 1000 }).output;
    expect(all).toBe(LOG);
    expect(narrow(LOG, `page:${pages + 1}`, { pageTokens: 1000 }).output).toMatch(/no page/);
  });

  it("gives the whole original for the empty query when it is one page", () => {
    expect(narrow(LOG, "")).toMatchObject({ full: true, output: LOG });
  });
});
