import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";

describe("plain text", () => {
  it("folds a log region inside other text by region, leaving the text around it whole", () => {
    const env = Array.from(
      { length: 150 },
      (_, i) => `VAR_${i}_${"ABCDEFG"[i % 7]}=${(i * 7919).toString(36)}`,
    );
    const log = Array.from(
      { length: 120 },
      (_, i) =>
        `2026-11-02 09:0${Math.floor(i / 60)}:${String(i % 60).padStart(2, "0")}.000 INFO [api] GET /v1/items/${i} 200`,
    );
    log.splice(70, 0, "2026-11-02 09:01:10.500 ERROR [api] payment provider timeout order=48213");
    const input = ["$ env", ...env, "$ docker compose logs api", ...log, "$ echo done", "done"].join("\n");
    const r = compress(input);
    expect(r.kind).toBe("text");
    expect(r.ratio).toBeGreaterThan(0.2);
    for (const line of env) expect(r.output).toContain(line);
    expect(r.output).toContain("ERROR [api] payment provider timeout order=48213");
    expect(r.output).toMatch(/\[caveman: lines \d+-\d+ elided; INFO\]/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("folds only runs of identical lines", () => {
    const input = ["start", ...Array.from({ length: 200 }, () => "waiting for lock..."), "done"].join("\n");
    const r = compress(input);
    expect(r.output).toBe(
      "start\nwaiting for lock...\n[caveman: lines 3-201 elided; identical to line 2]\ndone",
    );
  });

  it("passes a real directory listing through", () => {
    const item = corpusItem("text-typescript-lib-sizes");
    const r = compress(item.content, { hint: item.hint ?? "ls -l" });
    expect(r.output).toBe(item.content);
    expect(r.reason).toBeDefined();
  });
});
