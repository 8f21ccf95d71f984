import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem } from "../../corpus.test-util.js";
import { cleanTerminal } from "./terminal.js";

describe("terminal output", () => {
  it("strips escapes and keeps the last redraw of each line", () => {
    const esc = String.fromCharCode(27);
    expect(cleanTerminal(`${esc}[32mok${esc}[0m\nprogress 10%\rprogress 50%\rprogress 100%\n`).text).toBe(
      "ok\nprogress 100%\n",
    );
  });

  it("never cuts text that uses lone CRs as line breaks down to its last line", () => {
    const records = Array.from(
      { length: 200 },
      (_, i) => `record ${i}: ${"abcdefghij"[i % 10]!.repeat(20)} end`,
    );
    const r = compress(records.join("\r"));
    for (const line of records) expect(r.output).toContain(line);
  });

  it("collapses progress redraws to the last one and counts the states it dropped", () => {
    const bar = (i: number) =>
      `downloading ${String(i).padStart(3)}% [${"=".repeat(i >> 2)}>${" ".repeat(25 - (i >> 2))}]`;
    const progress = Array.from({ length: 101 }, (_, i) => bar(i)).join("\r");
    const log = Array.from(
      { length: 100 },
      (_, i) => `2024-01-01 10:00:${String(i % 60).padStart(2, "0")} INFO step ${i} done`,
    );
    const r = compress(["start", progress, ...log].join("\n"));
    expect(r.kind).toBe("terminal");
    const out = r.output.split("\n");
    expect(out[0]).toBe("[caveman: 100 overwritten line states elided]");
    expect(out).toContain(bar(100));
    expect(r.output).not.toContain(bar(50));
  });

  it("keeps a line of different lines joined by CRs whole and still compresses the text around it", () => {
    const joined = ["alpha line one here", "beta line two here!", "gamma line three ok"].join("\r");
    const log = Array.from(
      { length: 100 },
      (_, i) => `2024-01-01 10:00:${String(i % 60).padStart(2, "0")} INFO step ${i} done`,
    );
    const r = compress(["a header line", joined, ...log].join("\n"));
    expect(r.reason).toBeUndefined();
    expect(r.output.split("\n")).toContain(joined);
    expect(r.output).not.toContain("overwritten");
  });

  it("compresses real coloured vitest output as the test output underneath", () => {
    const item = corpusItem("terminal-vitest-colour");
    const r = compress(item.content, { hint: item.hint ?? "vitest run" });
    expect(r.kind).toBe("terminal");
    expect(r.ratio).toBeGreaterThan(0.5);
    for (const g of item.gold) expect(r.output).toContain(g.text);
    expect(r.output).not.toContain(String.fromCharCode(27));
  });
});
