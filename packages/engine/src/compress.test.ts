import { describe, expect, it } from "vitest";
import { compress, linesAreHonest } from "./compress.js";
import { corpusItems, fabricatedLines } from "./corpus.test-util.js";
import { countTokens } from "./tokens.js";

const logLines = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO GET /api/items/${i} 200 ${i % 90}ms`,
  ).join("\n");

describe("compress fails closed", () => {
  it("passes input below the floor through byte-identical", () => {
    const r = compress("hello world");
    expect(r).toMatchObject({ output: "hello world", ratio: 0, reason: "below_floor", lossless: true });
    expect(r.tokensIn).toBe(r.tokensOut);
  });

  it("honours a caller's floor", () => {
    const input = logLines(50);
    expect(compress(input, { floorTokens: 1_000_000 }).reason).toBe("below_floor");
    expect(compress(input, { floorTokens: 10 }).reason).toBeUndefined();
  });

  it("folds distinct lines as lines under region markers instead of passing them through", () => {
    const input = Array.from(
      { length: 200 },
      (_, i) => `entry ${"abcdefghij"[i % 10]}${i.toString(36)} ${"xyz".repeat(i % 4)}`,
    ).join("\n");
    const r = compress(input, { hint: "text" });
    expect(r.reason).toBeUndefined();
    expect(linesAreHonest(input, r.output)).toBe(true);
    expect(r.output.split("\n").some((l) => l.startsWith("[caveman: "))).toBe(true);
  });

  it("never throws on hostile input: NUL bytes, lone surrogates, huge lines, deep nesting", () => {
    const inputs = [
      "\u0000".repeat(5000),
      "\ud800\udfff\ud800".repeat(2000),
      "x".repeat(300_000),
      "[".repeat(100_000),
      `${"[".repeat(5000)}${"]".repeat(5000)}`,
      "<|endoftext|> ".repeat(500),
      "{".repeat(3000),
    ];
    for (const input of inputs) {
      const r = compress(input, { hint: "json" });
      if (r.reason) expect(r.output).toBe(input);
      else expect(r.tokensOut).toBeLessThan(r.tokensIn);
    }
  });

  it("stays linear on inputs built to make scanners backtrack: unclosed tags, comments, regexes", () => {
    const cases: Array<[string, string]> = [
      ["<script>".repeat(50_000), "html"],
      ["<!--".repeat(50_000), "html"],
      ["<a ".repeat(100_000), "html"],
      [`x = 1;${" a/b/'c'/d".repeat(100_000)}`, "code"],
      [`${"2026-01-01 10:00:00 INFO a1b2c3 ".repeat(50_000)}`, "log"],
    ];
    for (const [input, hint] of cases) {
      const r = compress(input, { hint });
      if (r.reason) expect(r.output).toBe(input);
      else expect(r.tokensOut).toBeLessThan(r.tokensIn);
    }
  });

  it("treats its own output as compressed: a second pass changes nothing", () => {
    const first = compress(logLines(400), { handle: "ccr_0123456789abcdef0123456789abcdef" });
    expect(first.reason).toBeUndefined();
    const second = compress(first.output, { handle: "ccr_0123456789abcdef0123456789abcdef" });
    expect(second.output).toBe(first.output);
  });

  it("keeps a JSON string value that quotes a marker with the caller's handle unchanged", () => {
    // Naming the handle once used to strip "; retrieve <handle>" from kept JSON values too.
    const h = "cv_h1";
    const note = `see [caveman: 3 items elided; retrieve ${h}]`;
    const rows = Array.from({ length: 200 }, (_, i) => ({
      id: i,
      note: i === 150 ? note : `plain ${i % 5}`,
    }));
    const r = compress(JSON.stringify(rows, null, 2), { handle: h });
    expect(r.kind).toBe("json");
    expect(r.reason).toBeUndefined();
    expect(r.output).toContain(JSON.stringify(note));
  });

  it("rounds the ratio to 4 decimals from the token counts", () => {
    const r = compress(logLines(400));
    expect(r.tokensIn).toBe(countTokens(logLines(400)));
    expect(r.tokensOut).toBe(countTokens(r.output));
    expect(r.ratio).toBe(Math.round((1 - r.tokensOut / r.tokensIn) * 10_000) / 10_000);
  });

  it("recognises outputs that are not quoted from the input", () => {
    expect(linesAreHonest("a\nbcd", "bc\n[caveman: 1 line elided]")).toBe(true);
    expect(linesAreHonest("a\nbcd", "made up")).toBe(false);
  });
});

describe("compress over the real corpus", () => {
  const items = corpusItems();
  it("is deterministic, idempotent and honest on every item", () => {
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const opts = {
        ...(item.hint ? { hint: item.hint } : {}),
        handle: "ccr_00112233445566778899aabbccddeeff",
      };
      const r = compress(item.content, opts);
      expect(compress(item.content, opts).output, item.id).toBe(r.output);
      expect(compress(r.output, opts).output, item.id).toBe(r.output);
      if (r.reason) expect(r.output, item.id).toBe(item.content);
      if (r.lossless || ["prose", "terminal", "html"].includes(r.kind)) continue;
      // Thinned JSON quotes the input or its compact form.
      const source =
        r.kind === "json" ? `${item.content}\n${JSON.stringify(JSON.parse(item.content))}` : item.content;
      expect(fabricatedLines(source, r.output), item.id).toEqual([]);
    }
  });
});

describe("originals that quote marker-like lines", () => {
  it("compresses a log holding a loose [caveman: ...] line, keeps it, and stays idempotent", () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) =>
        `2026-11-30 10:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")} INFO job ${i} done`,
    );
    lines.splice(1, 0, "[caveman: proxy started on 127.0.0.1:7070]");
    const input = lines.join("\n");
    const r = compress(input);
    expect(r.reason).toBeUndefined();
    expect(r.output.split("\n")).toContain("[caveman: proxy started on 127.0.0.1:7070]");
    expect(compress(r.output).output).toBe(r.output);
  });

  it("passes text under a note pointing at a stored original through (a server or hook header)", () => {
    const toon = Array.from({ length: 300 }, (_, i) => `  ${i},item ${i},ok`).join("\n");
    const header = "[caveman: json; ratio 0.41; 900 -> 530 tokens; lossless; retrieve ccr_0123]";
    expect(compress(`${header}\nitems[300]{id,name,status}:\n${toon}`).reason).toBe("not_smaller");
  });

  it("passes text that already holds a marker this engine writes through", () => {
    const lines = Array.from({ length: 300 }, (_, i) => `2026-11-30 10:00:00 INFO job ${i} done`);
    lines.splice(5, 0, "[caveman: 12 of lines 6-20 elided; INFO]");
    expect(compress(lines.join("\n")).reason).toBe("not_smaller");
  });
});
