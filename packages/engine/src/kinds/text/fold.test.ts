import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { linesAreHonest } from "../../lines.js";
import { foldLines } from "./fold.js";

const listing = (n: number) =>
  Array.from({ length: n }, (_, i) => `-rw-r--r-- 1 dev dev ${1000 + i * 7} Dec  2 00:35 file-${i}.txt`);

describe("line fold", () => {
  it("keeps the first and last lines, error lines and one line per template, all verbatim", () => {
    const lines = listing(300);
    lines[150] = "ls: cannot open directory 'private': Permission denied";
    const input = lines.join("\n");
    const r = foldLines(input, {});
    if (typeof r === "string") throw new Error(r);
    const out = r.output.split("\n");
    expect(out.slice(0, 6)).toEqual(lines.slice(0, 6));
    expect(out.at(-1)).toBe(lines.at(-1));
    expect(r.output).toContain(lines[150]);
    expect(linesAreHonest(input, r.output)).toBe(true);
    expect(r.output.length).toBeLessThan(input.length * 0.3);
  });

  it("keeps a run's tallies wherever they sit (`N passing`, `N failing`, `added N packages`)", () => {
    const lines = listing(300);
    lines[120] = "  1256 passing (15s)";
    lines[121] = "  204 failing";
    lines[200] = "added 84 packages in 10s";
    const r = foldLines(lines.join("\n"), {});
    if (typeof r === "string") throw new Error(r);
    for (const k of [120, 121, 200]) expect(r.output).toContain(lines[k]);
  });

  it("keeps each commit's subject line (git log)", () => {
    const lines = listing(300);
    lines.splice(
      100,
      0,
      `commit ${"a".repeat(40)}`,
      "Author: A <a@example.com>",
      "Date:   Mon Jul 27 2026",
      "",
      "    fix: the subject",
    );
    const r = foldLines(lines.join("\n"), {});
    if (typeof r === "string") throw new Error(r);
    expect(r.output).toContain("    fix: the subject");
  });

  it("keeps the lines a query names", () => {
    const input = listing(300).join("\n");
    const r = foldLines(input, { query: "file-217.txt" });
    if (typeof r === "string") throw new Error(r);
    expect(r.output).toContain("file-217.txt");
  });

  it("samples distinct lines evenly, so every part of a long text has a witness", () => {
    // Letters only: a digit would be masked and make every line one template.
    const name = (i: number) =>
      [...i.toString(26).padStart(3, "0")].map((c) => "abcdefghijklmnopqrstuvwxyz"[parseInt(c, 26)]).join("");
    const lines = Array.from({ length: 1000 }, (_, i) => `entry ${name(i)} of the listing`);
    const r = foldLines(lines.join("\n"), {});
    if (typeof r === "string") throw new Error(r);
    const kept = new Set(r.output.split("\n"));
    const late = lines.slice(800, 990).filter((l) => kept.has(l));
    expect(late.length).toBeGreaterThan(5);
  });

  it("leaves a short text alone", () => {
    expect(foldLines(listing(10).join("\n"), {})).toBe("document");
  });

  it("compresses a cut-off JSON document (a read window) as lines, never as a parse error", () => {
    const records = Array.from({ length: 400 }, (_, i) => ({
      name: `pkg-${i}`,
      version: `1.${i}.0`,
      dev: i % 3 === 0,
    }));
    const whole = JSON.stringify({ packages: records }, null, 2);
    const cut = whole.slice(0, Math.floor(whole.length * 0.6));
    const r = compress(cut);
    expect(r.reason).toBeUndefined();
    expect(linesAreHonest(cut, r.output)).toBe(true);
  });
});
