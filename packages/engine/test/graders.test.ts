// The graders themselves must catch a broken engine: these wrap the real engine (src/) and break
// one behaviour at a time, then check that the grade reports exactly that failure. They also pin
// the baselines and helpers the bench relies on.
import { describe, expect, it } from "vitest";
import { headTail } from "../bench/baselines.mjs";
import { type CorpusItem, loadCorpus } from "../bench/corpus.mjs";
import { contains, type GradedEngine, gradeItem, handleFor, terminalView } from "../bench/graders.mjs";
import { median, summarize } from "../bench/summary.mjs";
import * as real from "../src/index.js";

const corpus = loadCorpus();
const byId = (id: string): CorpusItem => {
  const item = corpus.find((i) => i.id === id);
  if (!item) throw new Error(`corpus item ${id} is missing`);
  return item;
};
const logItem = byId("log-http-access");
const jsonItem = byId("json-http-orders");

type Compress = GradedEngine["compress"];
function withCompress(compress: Compress, overrides: Partial<GradedEngine> = {}): GradedEngine {
  return { ...real, compress, ...overrides };
}

describe("gradeItem on a broken engine", () => {
  it("counts every gold as lost when compress drops everything and narrow finds nothing", () => {
    const engine = withCompress(
      (input, o) => ({ ...real.compress(input, o), output: "[caveman: 2000 lines elided]" }),
      { narrow: () => ({ output: "", full: false }) },
    );
    const grade = gradeItem(engine, logItem, { baselines: false });
    expect(grade.lost).toBe(logItem.gold.length);
    expect(grade.visible).toBe(0);
  });

  it("counts a gold as needs_retrieve when only narrow returns it", () => {
    const engine = withCompress((input, o) => ({
      ...real.compress(input, o),
      output: "[caveman: all elided]",
    }));
    const grade = gradeItem(engine, logItem, { baselines: false });
    expect(grade.needsRetrieve).toBe(logItem.gold.length);
    expect(grade.lost).toBe(0);
  });

  it("flags an invented line as fabricated", () => {
    const invented = "ERROR disk full on /dev/sda1 (errno 28)";
    const engine = withCompress((input, o) => {
      const res = real.compress(input, o);
      return { ...res, output: `${res.output}\n${invented}` };
    });
    const grade = gradeItem(engine, logItem, { baselines: false });
    expect(grade.fabricated.count).toBe(1);
    expect(grade.fabricated.sample).toEqual([invented]);
  });

  it("flags a JSON value that is not in the original as fabricated", () => {
    const engine = withCompress((input, o) => ({
      ...real.compress(input, o),
      output: '{"total": 240, "status": "refunded"}',
    }));
    const grade = gradeItem(engine, jsonItem, { baselines: false });
    expect(grade.fabricated.count).toBe(1);
  });

  it("flags thinned JSON whose marker count does not match the run it replaced", () => {
    const content = JSON.stringify({ total: 12, items: Array.from({ length: 12 }, (_, i) => ({ id: i })) });
    const item: CorpusItem = { ...jsonItem, id: "json-made-up", content, bytes: content.length, gold: [] };
    const grade = (output: string) =>
      gradeItem(
        withCompress((input, o) => ({ ...real.compress(input, o), output })),
        item,
        { baselines: false },
      ).fabricated.count;
    const marker = (n: number) => `"[caveman: ${n} items elided (1-${n} of 12 at /items)]"`;
    const rest = Array.from({ length: 12 - 1 - 10 }, (_, i) => `{"id":${11 + i}}`).join(",");
    expect(grade(`{"total":12,"items":[{"id":0},\n${marker(10)},\n${rest}]}`)).toBe(0);
    // An element silently dropped, a wrong count, a value moved to another index, a key renamed:
    expect(grade(`{"total":12,"items":[{"id":0},\n${marker(10)}]}`)).toBe(1);
    expect(grade(`{"total":12,"items":[{"id":0},\n${marker(9)},\n${rest}]}`)).toBe(1);
    expect(grade(`{"total":12,"items":[{"id":1},\n${marker(10)},\n${rest}]}`)).toBe(1);
    expect(grade(`{"count":12,"items":[{"id":0},\n${marker(10)},\n${rest}]}`)).toBe(1);
    expect(grade("not json at all")).toBe(1);
  });

  it("flags prose or html lines whose words are not the original's, in order", () => {
    const content = "Alpha beta gamma.\n\nDelta epsilon never zeta.";
    const item: CorpusItem = {
      ...jsonItem,
      id: "prose-made-up",
      kind: "prose",
      content,
      bytes: content.length,
      gold: [],
    };
    const grade = (output: string) =>
      gradeItem(
        withCompress((input, o) => ({ ...real.compress(input, o), output })),
        item,
        { baselines: false },
      ).fabricated.count;
    expect(grade("Alpha gamma.\n\nDelta never zeta.")).toBe(0);
    expect(grade("Alpha gamma.\n\nDelta zeta never.")).toBe(1);
    expect(grade("gamma Alpha.")).toBe(1);
    expect(grade("Alpha beta always gamma.")).toBe(1);
  });

  it("reports output that changes between calls as not deterministic", () => {
    let calls = 0;
    const engine = withCompress((input, o) => {
      calls += 1;
      const res = real.compress(input, o);
      return { ...res, output: `${res.output}${" ".repeat(calls)}` };
    });
    expect(gradeItem(engine, logItem, { baselines: false }).deterministic).toBe(false);
  });

  it("reports output that compresses further as not idempotent", () => {
    const engine = withCompress((input, o) => {
      const res = real.compress(input, o);
      return { ...res, output: res.output.split("\n").slice(1).join("\n") };
    });
    expect(gradeItem(engine, logItem, { baselines: false }).idempotent).toBe(false);
  });

  it("reports a retrieve view that differs from the stored bytes", () => {
    const engine = withCompress(real.compress, {
      narrow: (original, query, o) =>
        query.startsWith("lines:")
          ? { output: original.slice(0, -1), full: true }
          : real.narrow(original, query, o),
    });
    expect(gradeItem(engine, logItem, { baselines: false }).retrieveExact).toBe(false);
  });

  it("reports a TOON decoder that changes values", () => {
    const engine = withCompress(real.compress, {
      toonDecode: (text) => {
        const res = real.toonDecode(text);
        return res.ok ? { ...res, output: res.output.replace("card_declined", "card_accepted") } : res;
      },
    });
    expect(gradeItem(engine, jsonItem, { baselines: false }).toonRoundTrip).toBe(false);
  });
});

describe("grader helpers", () => {
  it("derives the handle from the sha256 of the original", () => {
    expect(handleFor("abc")).toBe("ccr_ba7816bf8f01cfea414140de5dae2223");
  });

  it("matches gold text across changed runs of whitespace only", () => {
    expect(contains("a  b\n c", "a b c")).toBe(true);
    expect(contains("a b c", "a c")).toBe(false);
  });

  it("strips ANSI escapes and splits carriage-return redraws", () => {
    expect(terminalView("\x1b[32m ok\x1b[39m 10%\r ok 20%\r\ndone")).toBe(" ok 10%\n ok 20%\r\ndone");
  });

  it("truncates head and tail to the budget and keeps the first and last lines", () => {
    const text = logItem.content;
    const cut = headTail(real, text, 400);
    expect(real.countTokens(cut)).toBeLessThanOrEqual(420);
    expect(cut.startsWith(text.split("\n")[0] ?? "")).toBe(true);
    expect(cut.trimEnd().endsWith(text.trimEnd().split("\n").at(-1) ?? "")).toBe(true);
    expect(headTail(real, "short", 400)).toBe("short");
  });

  it("takes the median of the numbers only", () => {
    expect(median([3, null, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it("summarizes per kind with an overall row", () => {
    const grades = [gradeItem(real, logItem), gradeItem(real, jsonItem)];
    const rows = summarize(grades);
    expect(rows.map((r) => r.kind)).toEqual(["json", "log", "overall"]);
    expect(rows.at(-1)?.items).toBe(2);
    expect(rows.find((r) => r.kind === "json")?.target).toBe(0.8);
  });
});
