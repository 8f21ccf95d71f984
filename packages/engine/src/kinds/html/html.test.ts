import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem } from "../../corpus.test-util.js";
import { isMarkerLine } from "../../markers.js";
import { narrow } from "../../narrow.js";

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
