// Hostile inputs found in review: rewrites that would change what the input says (JSON a parse
// would change, lossy rewrites, tables whose rows are not redundant) are refused.
import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";

describe("JSON that a parse would change passes through", () => {
  const records = (id: (i: number) => string) =>
    `[${Array.from({ length: 60 }, (_, i) => `{"id":${id(i)},"status":"ok","v":${i % 5}}`).join(",\n")}]`;

  it("keeps 19-digit ids that a double would round (no fabricated ids in markers)", () => {
    const input = records((i) => `12345678901234567${800 + i}`);
    const r = compress(input);
    expect(r.reason).toBe("parse_error");
    expect(r.output).toBe(input);
  });

  it("passes through numbers that overflow, underflow or are minus zero", () => {
    for (const odd of ["1e400", "1e-400", "-0", "-0.0"]) {
      const input = records((i) => (i === 30 ? odd : String(i)));
      expect(compress(input).reason, odd).toBe("parse_error");
    }
  });

  it("passes through an object with a repeated key (a parse keeps only the last)", () => {
    const input = records((i) => String(i)).replace('{"id":30,', '{"id":30,"id":99,');
    expect(compress(input).reason).toBe("parse_error");
  });

  it("still compresses exact numbers, exponents and 15-digit values", () => {
    const input = records((i) => (i % 2 ? `1.5e${i % 9}` : `12345678901234${i % 10}`));
    expect(compress(input).reason).toBeUndefined();
  });

  it("keeps an array of distinct free-text records (a bibliography) whole", () => {
    const titles = Array.from({ length: 40 }, (_, i) => ({
      title: `On the ${i}th problem of ${["graphs", "rings", "fields", "sets"][i % 4]} and its ${i * 7} consequences for ${["logic", "algebra"][i % 2]}`,
      year: 1950 + i,
    }));
    const r = compress(JSON.stringify(titles, null, 2));
    for (const t of titles) expect(r.output).toContain(t.title);
  });
});

describe("rewrites that would change what the input says", () => {
  it("keeps a terminal line whole when a shorter redraw would leave an earlier one's tail on screen", async () => {
    const { cleanTerminal } = await import("./kinds/terminal/terminal.js");
    expect(cleanTerminal("error: disk full\rok\nprogress 10%\rprogress 100%\n").text).toBe(
      "error: disk full\rok\nprogress 100%\n",
    );
  });

  it("keeps quantifiers (all, some, any) when prose drops filler words", async () => {
    const { compressProse } = await import("./kinds/prose/prose.js");
    const text = "Some tests fail and all builds are slow; the server does not accept any token.";
    const out = compressProse(text, {});
    expect(typeof out === "string" ? text : out.output).toMatch(
      /Some tests fail.*all builds.*not accept any token/,
    );
  });
});

describe("tables that are not redundant rows", () => {
  const header = "id,title,year";
  it("keeps a table of distinct titles whole (a document)", () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) =>
        `${i},"On the ${i}th problem of ${["graphs", "rings", "fields"][i % 3]} and ${i * 7} of its consequences",${1950 + i}`,
    );
    const input = [header, ...rows].join("\n");
    const r = compress(input, { hint: "table" });
    expect(r.output).toBe(input);
    expect(r.reason).toBe("document");
  });

  it("leaves a CSV whole when a quoted cell spans lines (rows are not lines)", () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${i},"note ${i % 3}",${2000 + (i % 4)}`);
    rows[30] = '30,"a note that\ncontinues here",2001';
    const input = [header, ...rows].join("\n");
    const r = compress(input, { hint: "table" });
    expect(r.output).toBe(input);
    expect(r.reason).toBe("parse_error");
  });
});

describe("CRLF prose", () => {
  it("keeps every line's CR when words are dropped, folded by section or not", () => {
    let doc = "# Changelog\r\n\r\nThe intro text here.\r\n";
    for (let v = 30; v > 0; v--) {
      doc += `\r\n## 1.${v}.0\r\n\r\n`;
      for (let k = 0; k < 6; k++)
        doc += `- Fixed the bug number ${v * 10 + k} in the parser for input ${k}\r\n`;
    }
    for (const input of [doc, doc.split("\r\n").slice(0, 12).join("\r\n")]) {
      const r = compress(input, { hint: "prose", floorTokens: 0 });
      expect(r.kind).toBe("prose");
      expect(r.output).not.toBe(input);
      const lines = r.output.split("\n");
      // Only the last line (the text's end) and markers carry no CR.
      for (const line of lines.slice(0, -1)) if (!line.startsWith("[caveman: ")) expect(line).toMatch(/\r$/);
    }
  });
});
