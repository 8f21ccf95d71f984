import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { corpusItem, fabricatedLines } from "./corpus.test-util.js";
import { isMarkerLine } from "./markers.js";
import { narrow } from "./narrow.js";
import { cleanTerminal } from "./terminal.js";

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
    // One group covering the whole run: its count is the span's length (38 lines).
    const span = /lines (\d+)-(\d+) elided; frames: express\]/.exec(r.output)!;
    expect(Number(span[2]) - Number(span[1]) + 1).toBe(38);
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

describe("HTML", () => {
  it("keeps the visible text and structure, without scripts, styles, svg, comments or markup", () => {
    const parts = ["<!doctype html>", "<html>", "<head>", "<title>Release &amp; notes</title>", "<style>"];
    for (let i = 0; i < 60; i++) parts.push(`  .c${i} { color: red; margin: ${i}px; }`);
    parts.push("</style>", "<script>");
    for (let i = 0; i < 60; i++) parts.push(`  window.track${i} = function () { return ${i}; };`);
    parts.push(
      "</script>",
      "</head>",
      '<body class="doc">',
      "<h1>Release notes</h1>",
      "<p>Version 2.0 <b>removes</b> the legacy API.</p>",
    );
    parts.push(
      "<ul><li>one</li><li>two</li></ul>",
      "<table><tr><td>a</td><td>b</td></tr></table>",
      "<pre>  x = 1\n  y = 2</pre>",
    );
    parts.push(
      "<!-- build 1234 -->",
      "<svg viewBox='0 0 10 10'>",
      "<path d='M0 0L10 10'/>",
      "</svg>",
      "</body>",
      "</html>",
    );
    const input = parts.join("\n");
    const r = compress(input);
    expect(r.kind).toBe("html");
    expect(r.ratio).toBeGreaterThan(0.8);
    const lines = r.output.split("\n");
    expect(isMarkerLine(lines[0]!)).toBe(true);
    expect(lines[0]).toContain("head x1, comment x1, svg x1");
    expect(lines.slice(1)).toEqual([
      "# Release & notes",
      "# Release notes",
      "Version 2.0 removes the legacy API.",
      "- one",
      "- two",
      "a | b",
      "  x = 1",
      "  y = 2",
    ]);
  });

  it("keeps the text a reader needs from real documentation pages", () => {
    for (const id of ["html-idle-help", "html-pydoc-argparse"]) {
      const item = corpusItem(id);
      const r = compress(item.content, { hint: item.hint ?? "html" });
      expect(r.ratio, id).toBeGreaterThan(0.5);
      const view = (g: { text: string; query?: string }) =>
        r.output.includes(g.text) || narrow(item.content, g.query ?? g.text).output.includes(g.text);
      for (const g of item.gold) expect(view(g), g.text).toBe(true);
    }
  });
});

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

describe("prose", () => {
  it("folds a long changelog by section: the latest entries whole, then headings and first lines", () => {
    const lines: string[] = ["# Changelog", ""];
    for (let v = 40; v > 0; v--) {
      lines.push(`## 1.${v}.0 (2026-01-${String((v % 28) + 1).padStart(2, "0")})`, "");
      for (let k = 0; k < 5; k++)
        lines.push(`- Fix bug number ${v * 10 + k} in the parser when reading input`);
      lines.push("");
    }
    const input = lines.join("\n");
    const r = compress(input, { hint: "CHANGELOG.md", query: "number 52" });
    expect(r.kind).toBe("prose");
    expect(r.ratio).toBeGreaterThan(0.3);
    for (let v = 40; v > 0; v--) expect(r.output).toMatch(new RegExp(`^## 1\\.${v}\\.0 `, "m"));
    // The newest release whole; an old one keeps its first lines; the query's line is kept.
    expect(r.output).toContain("Fix bug number 404 in");
    expect(r.output).not.toContain("Fix bug number 103 in");
    expect(r.output).toContain("Fix bug number 52 in");
    expect(r.output).toMatch(/\[caveman: lines \d+-\d+ elided\]/);
    expect(compress(r.output, { hint: "CHANGELOG.md" }).output).toBe(r.output);
  });

  it("drops articles, filler and hedges but keeps negations, numbers, code, URLs and headings", () => {
    const para =
      "Please note that the server is basically not able to handle more than 20 requests per second, " +
      "and it should never be run with `--unsafe` except in tests. I think the docs at https://example.com/a/b " +
      "are really just a bit out of date, so you should probably read the source in src/server.ts instead.";
    const input = ["# The Server", "", para, "", "```js", "const the = a;", "```", "", para].join("\n");
    const r = compress(input, { hint: "prose", floorTokens: 10 });
    expect(r.kind).toBe("prose");
    expect(r.output).toContain("# The Server");
    expect(r.output).toContain("const the = a;");
    for (const kept of [
      "not",
      "never",
      "except",
      "20",
      "`--unsafe`",
      "https://example.com/a/b",
      "src/server.ts",
    ])
      expect(r.output).toContain(kept);
    expect(r.output).not.toMatch(/\b(basically|really|probably|Please)\b/);
    expect(r.ratio).toBeGreaterThan(0.2);
  });
});

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
