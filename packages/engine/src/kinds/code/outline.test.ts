import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";
import { narrow } from "../../narrow.js";
import { scanBraces } from "./scan.js";

const TS = `import { readFileSync } from "node:fs";

export interface Options {
  root: string;
  depth?: number;
}

export function load(path: string, options: Options): string {
  const text = readFileSync(path, "utf8");
  const braces = "{{{ not code }}}";
  const re = /[{]+/g;
  // a comment with a } brace
  return text.replace(re, braces);
}

export class Store {
  private items = new Map<string, number>();

  get(key: string): number | undefined {
    const value = this.items.get(key);
    if (value === undefined) return undefined;
    return \`\${value}\` === "0" ? 0 : value;
  }
}
`;

describe("code outline of files cut short and of Rust", () => {
  const rust = (fns: number) => {
    const out = ["use std::fmt;", "use crate::flags::Flag;", "use crate::hir::Hir;", ""];
    for (let f = 0; f < fns; f++) {
      out.push(
        "/// Negates the class.",
        "///",
        "/// The result holds every char the class did not hold before.",
      );
      out.push("/// It is never empty: a class of every char negates to the empty class, which then");
      out.push("/// matches nothing at all, and negating it again gives back the class of every char.");
      out.push("/// See `negate_bytes` for the byte-oriented form of the same operation on classes.");
      out.push(`pub fn negate_${f}(&mut self) -> &'static str {`);
      out.push(`    let msg = "a message that \\`, `        spans lines";`, `    let s = r"raw { text";`);
      out.push("    if self.ranges.is_empty() {", "        return msg;", "    }", "    s", "}", "");
    }
    return out;
  };

  it("outlines Rust with doc comments, multi-line strings and raw strings: every signature stays", () => {
    const lines = rust(12);
    const r = compress(lines.join("\n"), { floorTokens: 0 });
    expect(r.kind).toBe("code");
    expect(r.reason).toBeUndefined();
    for (let f = 0; f < 12; f++)
      expect(r.output).toContain(`pub fn negate_${f}(&mut self) -> &'static str {`);
    expect(r.output).toContain("/// Negates the class.");
    expect(r.output).not.toContain(
      "/// It is never empty: a class of every char negates to the empty class, which then",
    );
    expect(fabricatedLines(lines.join("\n"), r.output)).toEqual([]);
  });

  it("outlines a file cut inside a body (`head -n`): the signatures before the cut stay", () => {
    const lines = rust(12).slice(0, -8);
    const r = compress(lines.join("\n"), { floorTokens: 0 });
    expect(r.reason).toBeUndefined();
    expect(r.output).toContain("pub fn negate_11(&mut self) -> &'static str {");
    expect(r.output).toContain("pub fn negate_3(&mut self) -> &'static str {");
    expect(fabricatedLines(lines.join("\n"), r.output)).toEqual([]);
  });

  it("still fails closed on a closer without its opener", () => {
    expect(scanBraces(["  return 1;", "}", "function f() {"], "typescript", true)).toBeUndefined();
  });
});

describe("code outline", () => {
  it("pairs braces outside strings, comments, regexes and template literals", () => {
    const pairs = scanBraces(TS.split("\n"), "typescript");
    expect(pairs).toBeDefined();
    expect(pairs!.map((p) => [p.open + 1, p.close + 1])).toContainEqual([8, 14]);
    expect(scanBraces(["function f() {", "  return 1;"], "typescript")).toBeUndefined();
  });

  it("keeps imports, types and signatures and names each elided body's line span", () => {
    const input = TS.repeat(6);
    const r = compress(input, { hint: "code" });
    expect(r.kind).toBe("code");
    expect(r.ratio).toBeGreaterThan(0.2);
    expect(r.output).toContain('import { readFileSync } from "node:fs";');
    expect(r.output).toContain("  root: string;");
    expect(r.output).toContain("export function load(path: string, options: Options): string {");
    expect(r.output).toContain("  get(key: string): number | undefined {");
    expect(r.output).toContain("  [caveman: lines 9-13 elided]");
    expect(narrow(input, "lines:9-13").output).toBe(input.split("\n").slice(8, 13).join("\n"));
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("folds unbalanced code as lines instead of guessing an outline", () => {
    const input = TS.repeat(6).replace("export class Store {", "export class Store");
    const r = compress(input, { hint: "code" });
    expect(fabricatedLines(input, r.output)).toEqual([]);
    expect(r.reason).toBeUndefined();
  });

  it("outlines Python by indentation", () => {
    const item = corpusItem("code-python-textwrap");
    const r = compress(item.content, { hint: item.hint ?? "python" });
    expect(r.ratio).toBeGreaterThan(0.4);
    for (const g of item.gold) expect(r.output).toContain(g.text);
  });

  it("keeps a read tool's line-number gutter on every kept line", () => {
    const item = corpusItem("code-js-yaml-loader-gutter");
    const r = compress(item.content, { hint: item.hint ?? "Read" });
    expect(r.ratio).toBeGreaterThan(0.4);
    const kept = r.output.split("\n").filter((l) => !l.trimStart().startsWith("[caveman:"));
    expect(kept.every((l) => /^ *\d+(\t|→)/.test(l) || l === "")).toBe(true);
    expect(fabricatedLines(item.content, r.output)).toEqual([]);
  });

  it("outlines Rust holding raw strings with quotes and braces in them", () => {
    const fns = Array.from({ length: 12 }, (_, i) =>
      [
        `pub fn render_${i}(x: u32) -> String {`,
        "    let mut out = String::new();",
        `    let tpl = r#"{"id": "${i}", "open": "{"}"#;`,
        '    let more = br"}}{";',
        '    let multi = r##"line one "#',
        '    still } inside"##;',
        '    format!("{}{}", tpl, x)',
        "}",
        "",
      ].join("\n"),
    ).join("\n");
    const r = compress(`use std::fmt;\n\n${fns}`, { hint: "code" });
    expect(r.kind).toBe("code");
    expect(r.reason).toBeUndefined();
    expect(r.output).toContain("pub fn render_11(x: u32) -> String {");
    expect(r.output).not.toContain("still } inside");
  });
});
