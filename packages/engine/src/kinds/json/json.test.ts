import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";
import { isMarkerLine } from "../../markers.js";
import { narrow } from "../../narrow.js";
import { countTokens } from "../../tokens.js";

const HANDLE = `ccr_${"ab".repeat(16)}`;

function users(n: number, planted = 57) {
  return Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    name: `user${i}`,
    role: i === planted ? "admin" : "member",
    score: 10 + (i % 7),
  }));
}

describe("JSON compression", () => {
  it("thins a long record array into valid JSON that keeps a planted record and states the total", () => {
    const input = JSON.stringify({ total: 120, items: users(120) }, null, 2);
    const r = compress(input, { handle: HANDLE });
    expect(r.kind).toBe("json");
    expect(r.lossless).toBe(false);
    expect(r.ratio).toBeGreaterThan(0.8);
    const parsed = JSON.parse(r.output) as { total: number; items: unknown[] };
    expect(parsed.total).toBe(120);
    expect(r.output).toContain('"role":"admin"');
    const markers = parsed.items.filter((x): x is string => typeof x === "string");
    expect(markers.length).toBeGreaterThan(0);
    // Marker counts plus kept records add up to the real array length; the handle is named once.
    const elided = markers.reduce((n, m) => n + Number(/(\d+) items? elided/.exec(m)![1]), 0);
    expect(elided + parsed.items.length - markers.length).toBe(120);
    for (const m of markers) expect(m).toContain("of 120 at /items)");
    expect(markers.filter((m) => m.includes(HANDLE))).toHaveLength(1);
    // Thinning works on the compact form: every line is a slice of it, or a marker.
    expect(fabricatedLines(JSON.stringify(JSON.parse(input)), r.output)).toEqual([]);
  });

  it("states facts computed from exactly the elided records", () => {
    const input = JSON.stringify(users(40, 999), null, 2);
    const r = compress(input);
    const marker = r.output.split("\n").find(isMarkerLine)!;
    const m = /(\d+) items elided \((\d+)-(\d+) of 40/.exec(marker)!;
    const [from, to] = [Number(m[2]), Number(m[3])];
    expect(Number(m[1])).toBe(to - from + 1);
    expect(marker).toContain(`id ${1000 + from}..${1000 + to}, ${to - from + 1} distinct`);
    expect(marker).toContain("role member (all)");
  });

  it("writes a short elided run verbatim when its marker would cost more than the records", () => {
    // Record 2 sat between two kept records and became a 32-token marker for a 9-token record.
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, v: i % 3 === 0 ? `v${i}` : "same" }));
    const input = JSON.stringify(rows);
    const r = compress(input, { handle: "cv_h" });
    expect(r.kind).toBe("json");
    expect(r.reason).toBeUndefined();
    expect(JSON.parse(r.output)).toBeInstanceOf(Array);
    expect(r.output).toContain('{"id":1,"v":"same"},{"id":2,"v":"same"},{"id":3,"v":"v3"}');
    for (const line of r.output.split("\n").filter(isMarkerLine)) {
      const m = /\((\d+)-(\d+) of/.exec(line)!;
      const elided = rows
        .slice(Number(m[1]), Number(m[2]) + 1)
        .map((x) => JSON.stringify(x))
        .join(",");
      expect(countTokens(line)).toBeLessThanOrEqual(countTokens(elided));
    }
  });

  it("keeps records that match the query", () => {
    const input = JSON.stringify(users(80), null, 2);
    const r = compress(input, { query: "user42" });
    expect(r.output).toContain('"name":"user42"');
  });

  it("keeps error-like records", () => {
    const rows = users(60).map((u, i) => ({ ...u, status: i === 33 ? "failed" : "ok" }));
    const r = compress(JSON.stringify(rows, null, 2));
    expect(r.output).toContain('"id":1033');
  });

  it("cuts minified JSON into lines that are slices of the original", () => {
    const input = JSON.stringify({ items: users(100) });
    const r = compress(input);
    expect(r.reason).toBeUndefined();
    expect(() => JSON.parse(r.output)).not.toThrow();
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("uses a lossless re-encoding when nothing is redundant enough to thin", () => {
    const input = JSON.stringify({ a: { b: [1, 2, 3], c: "x".repeat(50) }, d: [{ k: "v" }] }, null, 8);
    const r = compress(input, { floorTokens: 10 });
    expect(r.lossless).toBe(true);
    expect(r.ratio).toBeGreaterThan(0);
  });

  it("does not thin an array of distinct long strings (a document)", () => {
    const refs = Array.from(
      { length: 30 },
      (_, i) =>
        `Author ${i}, "A distinct title about subject number ${i} and its many consequences", Journal ${i}`,
    );
    const r = compress(JSON.stringify(refs, null, 2));
    expect(r.output.split("\n").some(isMarkerLine)).toBe(false);
  });

  it("passes malformed JSON through with parse_error when hinted as JSON", () => {
    const input = `{"items": [${Array.from({ length: 200 }, (_, i) => `{"id": ${i}}`).join(",")}`;
    const r = compress(input, { hint: "json" });
    expect(r).toMatchObject({ output: input, ratio: 0, reason: "parse_error" });
  });

  it("thins a real paginated GitHub API response and keeps it valid JSON", () => {
    const item = corpusItem("json-octokit-paginated-issues");
    const r = compress(item.content, { hint: item.hint ?? "json", handle: HANDLE });
    expect(r.ratio).toBeGreaterThan(0.5);
    expect(() => JSON.parse(r.output)).not.toThrow();
    const compact = JSON.stringify(JSON.parse(item.content));
    expect(fabricatedLines(`${item.content}\n${compact}`, r.output)).toEqual([]);
  });

  it("keeps the planted declined order of a real HTTP API response", () => {
    const item = corpusItem("json-http-orders");
    const r = compress(item.content, { hint: item.hint ?? "json" });
    expect(r.ratio).toBeGreaterThan(0.8);
    for (const g of item.gold) expect(r.output).toContain(g.text);
  });

  it("thins a keyed collection into null-valued marker members and keeps it valid JSON", () => {
    const item = corpusItem("json-mime-db");
    const r = compress(item.content, { hint: item.hint ?? "json", handle: HANDLE });
    expect(r.ratio).toBeGreaterThan(0.8);
    const parsed = JSON.parse(r.output) as Record<string, unknown>;
    const markers = Object.keys(parsed).filter((k) => k.startsWith("[caveman: "));
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) expect(parsed[m]).toBeNull();
    const total = Object.keys(JSON.parse(item.content) as object).length;
    const elided = markers.reduce((n, m) => n + Number(/(\d+) members? elided/.exec(m)![1]), 0);
    expect(elided + Object.keys(parsed).length - markers.length).toBe(total);
    for (const line of r.output.split("\n")) {
      if (line.startsWith('"[caveman: ')) expect(isMarkerLine(line), line).toBe(true);
    }
    for (const g of item.gold) {
      const found =
        r.output.includes(g.text) || narrow(item.content, g.query ?? g.text).output.includes(g.text);
      expect(found, g.text).toBe(true);
    }
  });

  it("keeps the first record of every shape in a mixed feed", () => {
    const feed = Array.from({ length: 90 }, (_, i) =>
      i % 3 === 0
        ? { type: "push", sha: `c${i}` }
        : i % 3 === 1
          ? { type: "issue", number: i }
          : { type: "star", user: `u${i}` },
    );
    feed[45] = { type: "deploy", env: "prod" } as never;
    const r = compress(JSON.stringify(feed, null, 2));
    for (const needle of ['"type":"push"', '"type":"issue"', '"type":"star"', '"type":"deploy"'])
      expect(r.output).toContain(needle);
  });
});
