import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines, unplaceableReferences } from "../../corpus.test-util.js";
import { isMarkerLine } from "../../markers.js";
import { templateOf } from "./template.js";

const BRACKETED_REFERENCE =
  /\[(?!(?:error|warn|warning|notice|info|debug|crit|alert|emerg|trace|fatal)\])[^\]\s[]{1,60}\]/gi;

describe("log compression", () => {
  it("masks exactly what the reference regex masks (the scanner replaced it for speed)", () => {
    const VARIABLE = /(?<![0-9a-f])[0-9a-f]*\d[0-9a-f.:_-]*/gi;
    const chars = fc.constantFrom(..."0123456789abcdefABCDEFxyzXYZ.:_- [](){}/\u00e9\u2014");
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 60 }), (line) => {
        expect(templateOf(line)).toBe(line.replace(VARIABLE, "#").replace(BRACKETED_REFERENCE, "[#]"));
      }),
      propertyParams(3000),
    );
  });

  it("masks timestamps, ids and numbers so repeated lines share a template", () => {
    expect(templateOf("2026-11-30T10:00:01Z GET /api/items/17 200 12ms id=3f2a9c1b")).toBe(
      templateOf("2026-11-30T11:22:59Z GET /api/items/942 200 7ms id=9d00ab37"),
    );
    expect(templateOf("GET /api/items/1 200")).not.toBe(templateOf("POST /api/items/1 200"));
  });

  it("keeps errors with their stack trace whole and folds repeated lines with level and count", () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      const ts = `2026-11-30T10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
      lines.push(`${ts} INFO GET /api/items/${i} 200 ${i % 40}ms`);
      if (i === 150) {
        lines.push(`${ts} ERROR unhandled error in GET /api/orders/4821`);
        lines.push("TypeError: Cannot read properties of undefined (reading 'id')");
        lines.push("    at handler (/srv/app/routes/orders.js:42:17)");
        lines.push("    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)");
      }
    }
    const input = lines.join("\n");
    const r = compress(input, { handle: "ccr_feedface" });
    expect(r.kind).toBe("log");
    expect(r.ratio).toBeGreaterThan(0.85);
    expect(r.output).toContain("ERROR unhandled error in GET /api/orders/4821");
    expect(r.output).toContain(
      "    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)",
    );
    const markers = r.output.split("\n").filter(isMarkerLine);
    const span = (m: string) => {
      const region = /^\[caveman: (\d+) of lines/.exec(m);
      if (region) return Number(region[1]);
      const s = /lines? (\d+)(?:-(\d+))? elided/.exec(m)!;
      return Number(s[2] ?? s[1]) - Number(s[1]) + 1;
    };
    const folded = markers.reduce((n, m) => n + span(m), 0);
    expect(folded + r.output.split("\n").length - markers.length).toBe(lines.length);
    // Level and count, no time span (stamps are not parsed), the handle once.
    // All folded lines are INFO: the level alone, the span gives the count.
    expect(markers[0]).toMatch(/; INFO[;\]]/);
    expect(markers.filter((m) => m.includes("retrieve ccr_feedface"))).toHaveLength(1);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("keeps the first line of every distinct warning and error template, even rare ones", () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push(
        `081109 2036${String(i % 60).padStart(2, "0")} ${i % 30} INFO dfs.DataNode: served block blk_${i}`,
      );
      if (i % 50 === 7)
        lines.push(`081109 203600 ${i} WARN dfs.DataNode: slow disk ${i % 3 === 0 ? "sda" : "sdb"} ${i}ms`);
      if (i === 300) lines.push("081109 203600 9 ERROR dfs.FSNamesystem: block blk_77 is corrupt");
    }
    const input = lines.join("\n");
    const r = compress(input);
    expect(r.kind).toBe("log");
    expect(r.output).toContain("WARN dfs.DataNode: slow disk sdb 7ms");
    expect(r.output).toContain("WARN dfs.DataNode: slow disk sda 57ms");
    expect(r.output).toContain("ERROR dfs.FSNamesystem: block blk_77 is corrupt");
    // Folded warnings are named with their level in a marker, never lumped into "others".
    expect(r.output).toMatch(/WARN like line \d+ x\d+/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("names the kept 5xx line, not a 2xx line of the same template, for folded 5xx lines", () => {
    // 503 and 200 requests share a template; the folded 503s were described as "like line 1" (a 200).
    const lines = Array.from(
      { length: 400 },
      (_, i) =>
        `10.0.0.${i % 250} - - [10/Oct/2024:13:55:${String(i % 60).padStart(2, "0")} +0000] "GET /api/items/${i} HTTP/1.1" ${i % 10 === 9 ? 503 : 200} ${1000 + i}`,
    );
    const r = compress(lines.join("\n"), { hint: "log" });
    expect(r.kind).toBe("log");
    expect(r.reason).toBeUndefined();
    const out = r.output.split("\n");
    expect(out[4]).toBe(lines[9]);
    // The named line ends the region before it, so the model can place it (line 10, after 4-9).
    expect(out[3]).toBe("[caveman: lines 4-9 elided]");
    const big = out.find((l) => l.startsWith("[caveman: lines 11-399 elided"));
    expect(big).toMatch(/\blike line 10 x38\b/);
    expect(unplaceableReferences(lines.join("\n"), r.output)).toEqual([]);
  });

  it("keeps the first client error (4xx) of an access log, as a warning", () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) =>
        `127.0.0.1 - - [02/Dec/2026 01:06:${String(i % 60).padStart(2, "0")}] "GET /items/${i} HTTP/1.1" ${i === 170 ? 404 : 200} -`,
    );
    const r = compress(lines.join("\n"), { hint: "log" });
    expect(r.kind).toBe("log");
    expect(r.output).toContain(lines[170]);
  });

  it("keeps lines that match the query", () => {
    const input = Array.from(
      { length: 200 },
      (_, i) => `2026-11-30 10:00:00 INFO job ${i} done for tenant-${i}`,
    ).join("\n");
    expect(compress(input).output).not.toContain("tenant-123");
    expect(compress(input, { query: "tenant-123" }).output).toContain("job 123 done for tenant-123");
  });

  it("compresses a real access log and keeps the planted 5xx requests", () => {
    const item = corpusItem("log-http-access");
    const r = compress(item.content, { hint: item.hint ?? "log" });
    expect(r.ratio).toBeGreaterThan(0.85);
    for (const g of item.gold) expect(r.output).toContain(g.text);
    expect(fabricatedLines(item.content, r.output)).toEqual([]);
  });

  it("keeps the error lines of a real application journal", () => {
    const item = corpusItem("log-http-app");
    const r = compress(item.content, { hint: item.hint ?? "log" });
    expect(r.ratio).toBeGreaterThan(0.5);
    for (const g of item.gold) expect(r.output).toContain(g.text);
  });
});
