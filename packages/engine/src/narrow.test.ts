import { describe, expect, it } from "vitest";
import { corpusItem } from "./corpus.test-util.js";
import { isMarkerLine } from "./markers.js";
import { ALL, LOG, tokens } from "./narrow/log.test-helpers.js";
import { narrow } from "./narrow.js";

describe("narrow: a search reads like grep -n -C1", () => {
  it("prints the hit as line:text, one line of context as line-text, stack frames after an error", () => {
    const v = narrow(LOG, "payment declined");
    expect(v).toMatchObject({ full: false, matches: 1, unitsShown: 1 });
    expect(v.output).toBe(
      [
        "200-2026-11-30 10:00:19 INFO heartbeat 199",
        "201:2026-11-30 10:03:20 ERROR payment declined for order 4821",
        "202-    at charge (src/pay.ts:10:3)",
      ].join("\n"),
    );
  });

  it("matches the text case-insensitively before anything else", () => {
    expect(narrow(LOG, "PAYMENT DECLINED").output).toContain(
      "201:2026-11-30 10:03:20 ERROR payment declined",
    );
  });

  it("falls back to lines holding every word, and says so", () => {
    const v = narrow(LOG, "declined 4821 payment");
    expect(v.output).toContain("201:2026-11-30 10:03:20 ERROR payment declined for order 4821");
    expect(v.output.split("\n").at(-1)).toBe(
      "[caveman: 1 match shown; no line holds the text as written; lines with all its words]",
    );
  });

  it("falls back to the lines ranked best by the query's words", () => {
    const v = narrow(LOG, "refund declined");
    expect(v.output).toContain("201:");
    expect(v.output).toContain("lines ranked by its words");
  });

  it("ranks only lines holding half the query's words, so a pasted line no line holds costs one marker", () => {
    const grep = Array.from(
      { length: 300 },
      (_, i) => `src/m${i}.ts:${i + 1}:export function f${i}(text: string, n: number): string {`,
    ).join("\n");
    const v = narrow(
      grep,
      "export function foldLines(text: string, ctx: KindContext): Candidate | PassReason {",
    );
    expect(v.output).toBe("[caveman: lines 1-300 skipped; none matched the query]");
    const near = narrow(grep, "export function f7(text: string, ctx: KindContext)");
    expect(near.output).toContain("lines ranked by its words");
    expect(near.output).toContain(":export function f7(text: string");
  });

  it("keeps lines holding half the query's words when over 200 lines holding fewer outrank them", () => {
    const text = [
      ...Array.from({ length: 250 }, (_, i) => `zeta ${i}`),
      ...Array.from({ length: 2000 }, (_, i) => `alpha ${i}`),
      ...Array.from({ length: 2000 }, (_, i) => `gamma ${i}`),
      "gamma alpha together",
    ].join("\n");
    const v = narrow(text, "zeta alpha gamma delta");
    expect(v.output).toContain("4251:gamma alpha together");
    expect(v.output).toContain("lines ranked by its words");
  });

  it("ranks a line holding a word few lines hold, though it holds under half the query's words", () => {
    const text = [
      ...Array.from(
        { length: 300 },
        (_, i) => `src/m${i}.ts:${i + 1}:export function f${i}(text: string): string {`,
      ),
      "src/match.ts:9:export function matchLines(lines: string[], query: string): number[] {",
    ].join("\n");
    const v = narrow(text, "how does matchLines work");
    expect(v.output).toContain("301:src/match.ts:9:export function matchLines(");
    expect(v.output).toContain("lines ranked by its words");
  });

  it("ranks the lines of a pasted block that changed since, each held to half of its own line's words", () => {
    const text = [
      "function retry(fn, attempts) {",
      "  for (let i = 0; i < attempts; i++) {",
      "    try { return fn(); } catch (e) { lastError = e; }",
      "  }",
      "  throw lastError;",
      "}",
      ...Array.from({ length: 100 }, (_, i) => `const value${i} = compute(${i});`),
    ].join("\n");
    const v = narrow(
      text,
      [
        "function retry(fn, attempts, delay) {",
        "  for (let i = 0; i < attempts; i++) {",
        "    try { return await fn(); } catch (e) { lastError = e; }",
      ].join("\n"),
    );
    expect(v.output).toContain("1:function retry(fn, attempts) {");
    expect(v.output).toContain("3:    try { return fn(); } catch (e) { lastError = e; }");
    expect(v.output).toContain("lines ranked by its words");
    expect(v.output).not.toContain("compute(");
  });

  it("runs a /regex/ with flags, linear in time whatever the pattern", () => {
    const v = narrow(LOG, "/error .* order \\d+$/i");
    expect(v).toMatchObject({ matches: 1 });
    expect(v.output).toContain("201:");
    const slow = `${"a".repeat(30_000)}!`;
    expect(narrow(`${slow}\n${slow}`, "/(a+)+$/").output).not.toContain(":aaa");
  });

  it("searches a regex RE2 cannot run as text, and says why", () => {
    const v = narrow(LOG, "/(?<=x)y/");
    expect(v.output).toMatch(/not a regex this search runs/);
  });

  it("finds a block of lines pasted whole, and a line pasted from an earlier view", () => {
    const block = "ERROR payment declined for order 4821\n    at charge (src/pay.ts:10:3)";
    expect(narrow(LOG, block).output).toContain("202:    at charge");
    expect(narrow(LOG, "201:2026-11-30 10:03:20 ERROR payment declined").output).toContain("201:");
  });

  it("keeps the view inside the budget and names the rest and the query that pages on", () => {
    const v = narrow(LOG, "heartbeat");
    expect(v.matches).toBe(299);
    expect(tokens(v.output)).toBeLessThanOrEqual(400);
    const last = v.output.split("\n").at(-1)!;
    expect(last).toMatch(/^\[caveman: \d+ matches skipped \(lines \d+-301\); next: "heartbeat page:2"\]$/);
    const p2 = narrow(LOG, "heartbeat page:2");
    const firstOf = (o: string) => Number(/^(\d+)[:-]/.exec(o)![1]);
    const lastShown = Math.max(
      ...v.output.split("\n").flatMap((l) => (/^(\d+)[:-]/.test(l) ? [firstOf(l)] : [])),
    );
    expect(firstOf(p2.output)).toBeGreaterThan(lastShown - 2);
    expect(tokens(p2.output)).toBeLessThanOrEqual(400);
  });

  it("pages through every match exactly once and then says there is no further page", () => {
    const seen = new Set<number>();
    let page = 1;
    for (; page < 100; page++) {
      const v = narrow(LOG, `heartbeat page:${page}`);
      if (!v.output.includes(":")) break;
      for (const l of v.output.split("\n")) {
        const m = /^(\d+):/.exec(l);
        if (m) seen.add(Number(m[1]));
      }
      if (!v.output.includes("next:")) break;
    }
    expect(seen.size).toBe(299);
    expect(narrow(LOG, `heartbeat page:${page + 1}`).output).toMatch(/page \d+ is past the last page/);
  });

  it("caps a page at the limit, and falls back to 20 for a nonsense limit", () => {
    const sparse = Array.from({ length: 500 }, (_, i) => (i % 5 === 0 ? `hit ${i}` : `other ${i}`)).join(
      "\n",
    );
    expect(narrow(sparse, "hit", { limit: 5, ...ALL }).unitsShown).toBe(5);
    expect(narrow(sparse, "hit", { limit: Number.NaN, ...ALL }).unitsShown).toBe(20);
    expect(narrow(sparse, "hit", { limit: -3, ...ALL }).unitsShown).toBe(1);
  });

  it("cuts a very long hit line to a window around the match, with a marker saying so", () => {
    const line = `${"abc ".repeat(5000)}needle${" xyz".repeat(5000)}`;
    const v = narrow(line, "needle");
    const [shown, marker] = v.output.split("\n");
    expect(shown).toMatch(/^1:.*needle/);
    expect(shown!.length).toBeLessThan(300);
    expect(marker).toMatch(/^\[caveman: \d+ characters skipped \(line 1 shows \d+-\d+ of 40006\)\]$/);
  });

  it("names the JSON pointer of a match in a long JSON line, and how many matches the line holds", () => {
    const json = JSON.stringify(
      Array.from({ length: 3000 }, (_, i) => ({ id: i, name: i % 1000 === 777 ? "needle" : "hay" })),
    );
    const v = narrow(json, "needle");
    expect(v.output).toContain('{"id":777,"name":"needle"}');
    expect(v.output).toMatch(/; 3 matches in the line; at \/777\/name\]$/);
  });

  it("shows a diff hit with its file and hunk headers", () => {
    const d: string[] = [];
    for (let f = 0; f < 5; f++) {
      d.push(`diff --git a/f${f}.ts b/f${f}.ts`, "index 1..2 100644", `--- a/f${f}.ts`, `+++ b/f${f}.ts`);
      for (let h = 0; h < 4; h++)
        d.push(
          `@@ -${h * 10 + 1},3 +${h * 10 + 1},3 @@`,
          " ctx",
          " ctx",
          `-old ${f} ${h}`,
          `+new ${f} ${h}`,
          " ctx",
        );
    }
    const v = narrow(d.join("\n"), "new 3 2", { hint: "diff" });
    expect(v.output.split("\n")).toEqual([
      "88-+++ b/f3.ts",
      "--",
      "101-@@ -21,3 +21,3 @@",
      "--",
      "104--old 3 2",
      "105:+new 3 2",
      "106- ctx",
    ]);
  });

  it("says so when nothing matches, without inventing content", () => {
    const v = narrow(LOG, "zebra");
    expect(v).toMatchObject({ full: false, unitsShown: 0, matches: 0 });
    expect(v.output).toBe("[caveman: lines 1-301 skipped; none matched the query]");
    expect(isMarkerLine(v.output)).toBe(true);
  });

  it("does not claim nothing matched a query that holds no word, when it is not in the text", () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    expect(narrow(text, "->").output).toContain("the query has no word to match");
    const arrow = `${text}\na -> b`;
    expect(narrow(arrow, "->").output).toContain("51:a -> b");
  });

  it("returns the full original only when it fits the budget and a view would not be smaller", () => {
    expect(narrow("one single line of text", "text")).toMatchObject({
      full: true,
      output: "one single line of text",
    });
    expect(narrow(LOG, "heartbeat").full).toBe(false);
  });

  it("finds a real failing test in vitest output", () => {
    const item = corpusItem("test-vitest-verbose");
    const v = narrow(item.content, "cannot go from open to canceled", { hint: "vitest" });
    expect(v.output).toContain("Error: order 3: cannot go from open to canceled");
    expect(tokens(v.output)).toBeLessThanOrEqual(400);
  });

  it("never throws on hostile input", () => {
    for (const [text, q] of [
      ["\u0000".repeat(100), "\u0000"],
      ["[".repeat(10_000), "/0/0"],
      ["a\nb", "lines:-1"],
      ["x", ""],
      ["x\ny", "/[/"],
      ["x\ny", "page:0"],
    ] as const) {
      const v = narrow(text, q);
      expect(typeof v.output).toBe("string");
    }
  });
});
