import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";

describe("NDJSON", () => {
  it("passes JSON lines with a malformed line through with parse_error", () => {
    const rows = Array.from({ length: 60 }, (_, i) =>
      JSON.stringify({ id: i, level: "info", msg: `request ${i} ok` }),
    );
    rows[30] = '{"id": 30, "level": "info", "msg": "broken';
    const input = rows.join("\n");
    expect(compress(input, { hint: "ndjson" })).toMatchObject({ output: input, reason: "parse_error" });
  });

  it("thins JSON lines and keeps the planted request", () => {
    const item = corpusItem("ndjson-http-access");
    const r = compress(item.content, { hint: item.hint ?? "ndjson" });
    expect(r.kind).toBe("ndjson");
    expect(r.ratio).toBeGreaterThan(0.8);
    for (const g of item.gold) expect(r.output).toContain(g.text);
    expect(fabricatedLines(item.content, r.output)).toEqual([]);
  });
});
