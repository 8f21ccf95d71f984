// be-batch, near-miss errors and range-checked edits through the real binary and the SDK Client.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testClient as client, sandbox, text } from "./helpers.js";

const FILE = `${Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

describe("be-batch (real process)", () => {
  it("is listed with a flat edit schema, applies several edits at once and keeps removed text as chips", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const { tools } = await c.listTools();
    const batch = tools.find((t) => t.name === "be-batch");
    expect(batch?.inputSchema.required).toEqual(["path", "edits"]);
    const r = await c.callTool({
      name: "be-batch",
      arguments: {
        path: "a.txt",
        edits: [
          { start_line: 2, end_line: 3, content: "two-three" },
          { after_line: 5, content: "after five" },
          { old: "line 9\n", content: "" },
        ],
      },
    });
    expect(r.isError).toBeFalsy();
    const out = text(r);
    expect(out).toMatch(/^batch .*a\.txt: \+2 -3, 9 lines/);
    expect(out).toContain("-line 2\n-line 3\n+two-three");
    expect(readFileSync(file, "utf8")).toBe(
      "line 1\ntwo-three\nline 4\nline 5\nafter five\nline 6\nline 7\nline 8\nline 10\n",
    );
    const chips = [...out.matchAll(/chip:\/\/([0-9a-f]+)/g)].map((m) => m[0]);
    expect(chips).toHaveLength(2);
    const back = await c.callTool({
      name: "be-insert-chip",
      arguments: { from: chips[1]!, to: `file://${file}:8` },
    });
    expect(back.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toContain("line 8\nline 9\nline 10\n");
  });

  it("writes nothing when one edit overlaps another, names both, and keeps the failed call as a chip", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const r = await c.callTool({
      name: "be-batch",
      arguments: {
        path: "a.txt",
        edits: [
          { start_line: 2, end_line: 4, content: "a long replacement for lines two to four" },
          { start_line: 4, content: "x" },
        ],
      },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^be_invalid_range: edits 1 \(lines 2-4\) and 2 \(lines 4-4\) overlap/);
    expect(text(r)).toMatch(/\(saved as chip:\/\/[0-9a-f]+\)$/);
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });
});

describe("near misses and range hashes (real process)", () => {
  it("answers a near miss with the closest lines, a similarity and the first difference", async () => {
    const box = sandbox();
    writeFileSync(join(box.root, "a.ts"), "function f() {\n\treturn computeTotal(items);\n}\n");
    const c = await client(box);
    const r = await c.callTool({
      name: "be-replace",
      arguments: { path: "a.ts", old: "    return computeTotl(items);", content: "x" },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /^be_no_match: `old` text was not found in .*a\.ts \(3 lines\); copy the file's text exactly, or replace by line range\nclosest:\n- line 2, \d\d% similar; line 2 col 19: file "\\treturn computeTotal\(items\);" vs old …" {3}return computeTotl\(items\);"; whitespace differs too \(line 2 col 1\)/,
    );
  });

  it("edits the lines a range_hash names after another writer inserted above, and refuses with be_conflict when they changed", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const read = await c.callTool({ name: "be-read", arguments: { path: "a.txt:5" } });
    const range = /range ([0-9a-f]{64})/.exec(text(read))![1]!;
    writeFileSync(file, `inserted\n${FILE}`);
    const ok = await c.callTool({
      name: "be-replace",
      arguments: { path: "a.txt:5", content: "FIVE", range_hash: range.slice(0, 16) },
    });
    expect(ok.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe(`inserted\n${FILE.replace("line 5\n", "FIVE\n")}`);
    const again = await c.callTool({ name: "be-read", arguments: { path: "a.txt:7" } });
    const range7 = /range ([0-9a-f]{64})/.exec(text(again))![1]!;
    writeFileSync(file, readFileSync(file, "utf8").replace("line 6\n", "line six\n"));
    const stale = await c.callTool({
      name: "be-delete",
      arguments: { path: "a.txt:7", range_hash: range7 },
    });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toMatch(/^be_conflict: line 7 of .*a\.txt changed since it was read/);
    expect(text(stale)).toContain("It now holds:\nline six");
  });
});
