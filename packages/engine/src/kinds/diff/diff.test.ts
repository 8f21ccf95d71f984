import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines, unplaceableReferences } from "../../corpus.test-util.js";
import { narrow } from "../../narrow.js";

function fileDiff(name: string, hunks: number): string[] {
  const out = [
    `diff --git a/${name} b/${name}`,
    "index 1111111..2222222 100644",
    `--- a/${name}`,
    `+++ b/${name}`,
  ];
  for (let h = 0; h < hunks; h++) {
    out.push(`@@ -${h * 40 + 1},9 +${h * 40 + 1},9 @@ function f${h}() {`);
    for (let c = 0; c < 4; c++) out.push(`   const context${h}_${c} = compute(${c}, "unchanged text here");`);
    out.push(`-  return old${h};`, `+  return fresh${h};`);
    for (let c = 0; c < 3; c++) out.push(`   const after${h}_${c} = compute(${c}, "unchanged text here");`);
  }
  return out;
}

describe("diff compression", () => {
  it("names a folded '\\ No newline at end of file' line in the marker facts", () => {
    // It was counted under an empty name: "...; same change as line 9 x4,  x1".
    const lines: string[] = [];
    for (let f = 0; f < 6; f++) {
      lines.push(...fileDiff(`src/f${f}.ts`, 3));
      lines.push("\\ No newline at end of file");
    }
    // Every change repeats "return old#" -> "return fresh#": later hunks fold whole.
    const input = lines.join("\n");
    const r = compress(input, { hint: "git diff" });
    expect(r.kind).toBe("diff");
    expect(r.reason).toBeUndefined();
    const markers = r.output.split("\n").filter((l) => l.startsWith("[caveman: "));
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) {
      expect(m).not.toMatch(/(?:; |, ) x\d/);
      expect(m).not.toMatch(/\b1 more kinds\b/);
    }
    expect(r.output).toMatch(/no newline at end x\d/);
  });

  it("keeps every file line and each distinct change, folds context, file headers and repeated changes", () => {
    const lines = [...fileDiff("src/a.ts", 6), ...fileDiff("src/b.ts", 6)];
    // One change that is not a repeat of the others.
    const unique = lines.indexOf("+  return fresh4;");
    lines[unique] = "+  if (retries > MAX_RETRIES) throw new RetryError(retries);";
    const input = lines.join("\n");
    const r = compress(input, { hint: "git diff" });
    expect(r.kind).toBe("diff");
    expect(r.ratio).toBeGreaterThan(0.5);
    const out = r.output.split("\n");
    expect(out).toContain("diff --git a/src/a.ts b/src/a.ts");
    expect(out).toContain("diff --git a/src/b.ts b/src/b.ts");
    // The same edit (digits aside) is shown once, then folded, naming where it was shown.
    for (const line of ["-  return old0;", "+  return fresh0;"]) expect(out).toContain(line);
    expect(out).not.toContain("+  return fresh1;");
    expect(r.output).toMatch(/same change as line \d+/);
    expect(out).toContain("+  if (retries > MAX_RETRIES) throw new RetryError(retries);");
    expect(out).toContain("@@ -161,9 +161,9 @@ function f4() {");
    // Context and headers fold without being named: the span says enough.
    expect(out.filter((l) => l.startsWith("   const context"))).toEqual([]);
    expect(r.output).not.toMatch(/\bcontext x\d/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("never calls a combined diff's one-parent change context, nor a --word-diff change", () => {
    const cc = ["diff --cc src/a.ts", "index 1111111,2222222..3333333", "--- a/src/a.ts", "+++ b/src/a.ts"];
    cc.push("@@@ -1,9 -1,9 +1,9 @@@ function f() {");
    for (let c = 0; c < 5; c++) cc.push(`   const context${c} = compute(${c}, "unchanged text here");`);
    cc.push(" + const fromSecondParent = 2;", "-  const fromFirstParent = 1;");
    for (let c = 0; c < 5; c++) cc.push(`   const after${c} = compute(${c}, "unchanged text here");`);
    const word = [
      "diff --git a/b.ts b/b.ts",
      "index 1..2 100644",
      "--- a/b.ts",
      "+++ b/b.ts",
      "@@ -1,9 +1,9 @@",
    ];
    for (let c = 0; c < 5; c++) word.push(` const before${c} = compute(${c}, "unchanged text here");`);
    word.push(" const x = f({ limit: [-122-]{+219, signal+} });");
    for (let c = 0; c < 5; c++) word.push(` const later${c} = compute(${c}, "unchanged text here");`);
    const input = [...cc, ...word].join("\n");
    const r = compress(input);
    expect(r.kind).toBe("diff");
    expect(r.output).toContain(" + const fromSecondParent = 2;");
    expect(r.output).toContain(" const x = f({ limit: [-122-]{+219, signal+} });");
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("folds a lock file to per-file stats after its header", () => {
    const lock = [
      "diff --git a/pnpm-lock.yaml b/pnpm-lock.yaml",
      "--- a/pnpm-lock.yaml",
      "+++ b/pnpm-lock.yaml",
      "@@ -1,300 +1,300 @@",
    ];
    for (let i = 0; i < 150; i++) lock.push(`-  /pkg-${i}@1.0.${i}:`, `+  /pkg-${i}@1.1.${i}:`);
    const input = [...lock, ...fileDiff("src/c.ts", 2)].join("\n");
    const r = compress(input);
    expect(r.output).toContain("diff --git a/pnpm-lock.yaml b/pnpm-lock.yaml");
    expect(r.output).toContain("pnpm-lock.yaml +150 -150, generated or lock file");
    expect(r.output).toContain("+  return fresh0;");
  });

  it("folds a real vendored upgrade to per-file stats, and a query brings the lines back", () => {
    const item = corpusItem("diff-git-show-argparse");
    const r = compress(item.content, { hint: item.hint ?? "git show" });
    expect(r.ratio).toBeGreaterThan(0.5);
    expect(r.output).toMatch(/vendor\/argparse\/CHANGELOG\.md \+\d+ -\d+, generated or lock file/);
    for (const g of item.gold) {
      const shown =
        r.output.includes(g.text) || narrow(item.content, g.query ?? g.text).output.includes(g.text);
      expect(shown, g.text).toBe(true);
    }
  });
});

describe("a change repeated across files (the host tier's git diff)", () => {
  /** `git diff` of twelve 300-line files, each with lines 101-130 rewritten, as tests/host builds it. */
  const twelveFiles = () => {
    const out: string[] = [];
    for (let f = 0; f < 12; f++) {
      out.push(
        `diff --git a/m${f}.ts b/m${f}.ts`,
        `index 1111111..2222222 100644`,
        `--- a/m${f}.ts`,
        `+++ b/m${f}.ts`,
      );
      out.push(`@@ -98,36 +98,36 @@ export const v${f}_96 = compute(96, "alpha");`);
      const line = (i: number, v: string) => `export const v${f}_${i} = compute(${i}, "${v}");`;
      for (let i = 97; i < 100; i++) out.push(` ${line(i, "alpha")}`);
      for (let i = 100; i < 130; i++) out.push(`-${line(i, "alpha")}`);
      for (let i = 100; i < 130; i++) out.push(`+${line(i, "beta")}`);
      for (let i = 130; i < 133; i++) out.push(` ${line(i, "alpha")}`);
    }
    // git sorts paths as bytes: m0, m1, m10, m11, m2...
    return `${out.join("\n")}\n`;
  };

  it("shows the first file's hunk header, removed and added lines, and every file line", () => {
    const input = twelveFiles();
    const r = compress(input, { hint: "git --no-pager -C repo diff", handle: `ccr_${"0".repeat(32)}` });
    expect(r.kind).toBe("diff");
    const out = r.output.split("\n");
    expect(out).toContain('@@ -98,36 +98,36 @@ export const v0_96 = compute(96, "alpha");');
    expect(out).toContain('-export const v0_100 = compute(100, "alpha");');
    expect(out).toContain('+export const v0_100 = compute(100, "beta");');
    expect(out).toContain('+export const v0_129 = compute(129, "beta");');
    for (let f = 0; f < 12; f++) expect(out).toContain(`diff --git a/m${f}.ts b/m${f}.ts`);
    expect(r.output).toMatch(/same change as line \d+ but for numbers x\d+/);
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("names in its facts only lines the model can place: kept, outside every marker's span", () => {
    const input = twelveFiles();
    const r = compress(input, { hint: "git diff" });
    expect(r.output).toMatch(/same change as line/);
    expect(unplaceableReferences(input, r.output)).toEqual([]);
  });

  it("never names a change in a lock file, which folds whole, as the one a repeat repeats", () => {
    const change = ["@@ -1,3 +1,3 @@", " a", "-  timeout: 30,", "+  timeout: 60,", " b"];
    const lock = Array.from(
      { length: 40 },
      (_, i) => `+    "node_modules/pkg-${i}": { "version": "1.0.${i}" },`,
    );
    const lines = ["diff --git a/package-lock.json b/package-lock.json", ...change, ...lock];
    for (let f = 0; f < 8; f++) lines.push(`diff --git a/src/f${f}.ts b/src/f${f}.ts`, ...change);
    const input = lines.join("\n");
    const r = compress(input, { floorTokens: 0 });
    expect(r.output).toContain("+  timeout: 60,");
    expect(unplaceableReferences(input, r.output)).toEqual([]);
  });
});

describe("git log -p", () => {
  it("keeps each commit's subject and the 2 lines after it, folding the rest of its message", () => {
    const lines: string[] = [];
    for (let c = 0; c < 6; c++) {
      lines.push(
        `commit ${String(c).repeat(40)}`,
        "Author: A <a@example.com>",
        "Date:   Mon Jul 27 16:54:23 2026 -0500",
        "",
      );
      lines.push(`    build(deps): bump pkg${c} from 1.${c}.0 to 1.${c}.1 (#71${c})`, "    ");
      for (let k = 0; k < 20; k++)
        lines.push(`    Release note ${k} of pkg${c}: a long body line the bot pasted in whole.`);
      lines.push("", ...fileDiff(`src/f${c}.ts`, 1));
    }
    const input = lines.join("\n");
    const r = compress(input, { hint: "git log -p" });
    expect(r.kind).toBe("diff");
    for (let c = 0; c < 6; c++)
      expect(r.output).toContain(`    build(deps): bump pkg${c} from 1.${c}.0 to 1.${c}.1 (#71${c})`);
    expect(r.output).not.toContain("    Release note 9 of pkg0: a long body line the bot pasted in whole.");
    expect(r.output).toMatch(/commit message line x\d+/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });
});

describe("diffstat listings (git log --stat)", () => {
  const block = (sha: string, files: number) => {
    const out = [`commit ${sha}`, `Author: A <a@example.com>`, "", `    change ${sha}`, ""];
    for (let f = 0; f < files; f++)
      out.push(` src/mod${f}/index.ts | ${10 + f} ${"+".repeat(5 + (f % 7))}${"-".repeat(f % 3)}`);
    out.push(` ${files} files changed, ${files * 10} insertions(+), ${files} deletions(-)`);
    return out;
  };

  it("keeps headers, summaries, the first and the most changed files of each commit, counting the rest exactly", () => {
    const lines = [...block("a1b2c3d", 20), ...block("e4f5a6b", 2)];
    const input = lines.join("\n");
    for (const hint of [undefined, "git log --stat"]) {
      const r = compress(input, { ...(hint ? { hint } : {}), floorTokens: 0 });
      expect(r.kind).toBe("diff");
      expect(r.reason).toBeUndefined();
      const out = r.output.split("\n");
      for (const kept of [
        "commit a1b2c3d",
        "commit e4f5a6b",
        " 20 files changed, 200 insertions(+), 20 deletions(-)",
      ])
        expect(out).toContain(kept);
      expect(out).toContain(lines[5]);
      expect(out).not.toContain(lines[5 + 3]);
      // The 8 most changed files (13-20) stay; files 4-12: 9 files, 13+14+...+21 changed lines.
      expect(out).toContain(lines[5 + 12]);
      expect(out).toContain(lines[5 + 19]);
      expect(r.output).toContain("[caveman: lines 9-17 elided; 9 files, 153 changed lines]");
      expect(fabricatedLines(input, r.output)).toEqual([]);
    }
  });

  it("leaves a stat listing with patches (git log --stat -p) to the diff compressor", () => {
    const lines = [...block("a1b2c3d", 9), "diff --git a/x.ts b/x.ts", "@@ -1,2 +1,2 @@", "-a", "+b"];
    expect(compress(lines.join("\n"), { floorTokens: 0 }).output).not.toContain("changed lines");
  });
});

describe("combined diffs", () => {
  it("folds a merge resolution repeated across hunks as the same change", () => {
    const lines = ["diff --cc src/pay.ts", "index 1111111,2222222..3333333"];
    for (let h = 0; h < 8; h++) {
      lines.push(`@@@ -${h * 20 + 1},5 -${h * 20 + 1},5 +${h * 20 + 1},5 @@@ function f${h}() {`);
      lines.push(`    const head${h} = compute(${h}, "unchanged text here");`);
      lines.push(`-   const p${h} = await repo.load(id, { limit: ${h * 7} });`);
      lines.push(` -  const p${h} = await repo.load(id, { limit: ${h * 7}, cursor });`);
      lines.push(`++  const p${h} = await repo.load(id, { limit: ${h * 7}, cursor, signal });`);
      lines.push(`    const tail${h} = compute(${h}, "unchanged text here");`);
    }
    const input = lines.join("\n");
    const r = compress(input, { floorTokens: 0 });
    expect(r.kind).toBe("diff");
    expect(r.output).toContain("++  const p0 = await repo.load(id, { limit: 0, cursor, signal });");
    expect(r.output).not.toContain("++  const p5 = await repo.load(id, { limit: 35, cursor, signal });");
    expect(r.output).toMatch(/same change as line 5 but for numbers x\d+/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });
});

describe("repeated-change facts are true", () => {
  /** One file diff with a hunk per name, each making the edit `old` -> `neu` on that name's line. */
  const edits = (names: readonly string[], old: string, neu: string) => {
    const lines = ["diff --git a/x.ts b/x.ts", "--- a/x.ts", "+++ b/x.ts"];
    names.forEach((n, i) => {
      lines.push(`@@ -${i * 10 + 1},3 +${i * 10 + 1},3 @@`, ` ctx ${i}`, `-  ${n}.timeout = ${old};`);
      lines.push(`+  ${n}.timeout = ${neu};`, " ctx end");
    });
    return lines.join("\n");
  };
  const word = fc.stringMatching(/^[a-z]{3,8}$/);

  it("never calls an edit of different text the same change but for numbers", () => {
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 8, maxLength: 14 }), (names) => {
        const r = compress(edits(names, "30", "60"), { floorTokens: 0 });
        // The lines differ in their names, not in numbers: neither "same" claim is true.
        expect(r.output).not.toMatch(/same change as line/);
        expect(r.output).not.toMatch(/but for numbers/);
      }),
      propertyParams(40),
    );
  });

  it("says 'but for numbers' when only digits differ and 'same change' when the text is equal", () => {
    const names = Array.from({ length: 10 }, () => "pool");
    expect(compress(edits(names, "30", "60"), { floorTokens: 0 }).output).toMatch(
      /same change as line 6 x\d+\b(?! but)/,
    );
    const numbered = names.map((n, i) => `${n}${i}`);
    expect(compress(edits(numbered, "30", "60"), { floorTokens: 0 }).output).toMatch(
      /same change as line 6 but for numbers x\d+/,
    );
  });
});
