import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";

describe("stack traces", () => {
  it("keeps every message line and the app's own frames, folding library frames per package", () => {
    const lines = ["Error: cannot load config", "    at loadConfig (/srv/app/src/config.js:10:5)"];
    for (let i = 0; i < 40; i++)
      lines.push(`    at step${i} (/srv/app/node_modules/express/lib/router/index.js:${100 + i}:7)`);
    lines.push("    at main (/srv/app/src/main.js:3:1)");
    lines.push("Caused by: YAMLException: bad indentation of a mapping entry (3:5)");
    for (let i = 0; i < 30; i++) lines.push(`    at readBlock${i} (node:internal/modules/cjs/loader:${i}:1)`);
    const input = lines.join("\n");
    const r = compress(input, { hint: "node" });
    expect(r.kind).toBe("stacktrace");
    expect(r.ratio).toBeGreaterThan(0.5);
    expect(r.output).toContain("Error: cannot load config");
    expect(r.output).toContain("Caused by: YAMLException: bad indentation of a mapping entry (3:5)");
    expect(r.output).toContain("    at main (/srv/app/src/main.js:3:1)");
    // One group covering the whole run past the first 2 frames: its count is the span's length.
    const span = /lines (\d+)-(\d+) elided; frames: express\]/.exec(r.output)!;
    expect(Number(span[2]) - Number(span[1]) + 1).toBe(39);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("shows a recursion's cycle whole once and folds its repeats", () => {
    const cycle = [
      "\tat com.acme.bind.Wrapper.write(Wrapper.java:76)",
      "\tat com.acme.bind.Reflective$2.write(Reflective.java:254)",
      "\tat com.acme.bind.Reflective$Adapter.write(Reflective.java:494)",
      "\tat com.acme.Codec$Future.write(Codec.java:1274)",
    ];
    const lines = ['Exception in thread "main" java.lang.StackOverflowError'];
    lines.push(
      "\tat com.acme.stream.Writer.value(Writer.java:531)",
      "\tat com.acme.bind.Leaf.write(Leaf.java:577)",
    );
    for (let i = 0; i < 60; i++) lines.push(...cycle);
    const input = lines.join("\n");
    const r = compress(input, { hint: "java", budget: 700 });
    for (const frame of cycle) expect(r.output).toContain(frame);
    expect(r.output).toMatch(/frames: repeated frames/);
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("folds recursion in a real chained Python traceback and keeps every message", () => {
    const item = corpusItem("stacktrace-python-chained");
    const r = compress(item.content, { hint: item.hint ?? "python3" });
    expect(r.ratio).toBeGreaterThan(0.4);
    expect(r.output).toMatch(/frames: repeated frames x\d+/);
    for (const g of item.gold) expect(r.output).toContain(g.text);
    expect(fabricatedLines(item.content, r.output)).toEqual([]);
  });
});
