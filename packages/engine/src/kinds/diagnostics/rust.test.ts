import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { detect } from "../../detect.js";

const block = (message: string, line: number) =>
  [
    `warning: ${message}`,
    `  --> src/unicode_tables/age.rs:${line}:19`,
    "   |",
    `${String(line).padStart(3)} | pub const V1_1: &'static [(char, char)] = &[('\\0', 'ǵ'), ('ɐ', 'ʨ')];`,
    "   |                 -^^^^^^^------------------- help: consider removing `'static`",
    "   |",
    "   = help: for further information visit https://rust-lang.github.io/rust-clippy/index.html#redundant_static_lifetimes",
    "",
  ].join("\n");

const clippy = [
  "    Checking regex-syntax v0.8.11 (/src/regex/regex-syntax)",
  ...Array.from({ length: 30 }, (_, i) =>
    block("constants have by default a `'static` lifetime", 9 + i * 31),
  ),
  block("`modified` shadows a previous, unrelated binding", 2611),
  "warning: `regex-syntax` (lib) generated 31 warnings",
].join("\n");

describe("rustc and clippy blocks", () => {
  it("reads clippy blocks as diagnostics though their frames outnumber their heads", () => {
    expect(detect(clippy).kind).toBe("diagnostics");
  });

  it("folds later blocks of a message repeated many times and counts them in the marker", () => {
    const res = compress(clippy);
    expect(res.tokensOut).toBeLessThan(res.tokensIn * 0.2);
    const heads = res.output.split("\n").filter((l) => l.startsWith("warning: constants"));
    expect(heads).toHaveLength(2);
    expect(res.output).toContain("constants have by default a `'static` lifetime x28");
    expect(res.output).toContain("warning: `modified` shadows a previous, unrelated binding");
    expect(res.output).toContain("warning: `regex-syntax` (lib) generated 31 warnings");
  });
});
