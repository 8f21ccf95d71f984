// The edit family and chips through the real binary and the SDK Client.
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connect, type Sandbox, sandbox, text } from "./helpers.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function client(box: Sandbox) {
  const c = await connect(box);
  open.push(c.client);
  return c.client;
}

const FILE = `${Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
/** The chip ids an edit result names (`chip://<id>`), in order. */
const chipsIn = (result: unknown) => [...text(result).matchAll(/chip:\/\/[0-9a-f]{6}/g)].map((m) => m[0]);
/** The summary line every edit result opens with. */
const SUMMARY =
  /^(\w+) (\S+): \+(\d+) -(\d+), (\d+) lines, hash ([0-9a-f]{64}|none) \((written|preview, nothing written|unchanged)\)$/m;

describe("edit tools (real process)", () => {
  it("reads numbered lines with hashes, and reports a line past the end as be_out_of_range naming the line and the length", async () => {
    const box = sandbox();
    writeFileSync(join(box.root, "a.txt"), FILE);
    const c = await client(box);
    const r = await c.callTool({ name: "be-read", arguments: { path: "a.txt:3-4" } });
    expect(r.structuredContent).toBeUndefined();
    expect(text(r)).toMatch(
      /^\S+a\.txt lines 3-4 of 10, hash [0-9a-f]{64}, range [0-9a-f]{64}\n3\tline 3\n4\tline 4$/,
    );
    const bad = await c.callTool({ name: "be-read", arguments: { path: "a.txt", start_line: 90 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^be_out_of_range: line 90 is past the end \(.*a\.txt has 10 lines\)/);
  });

  it("deletes a range into a chip and puts it back where it came from", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const del = await c.callTool({ name: "be-delete", arguments: { path: "a.txt:4-6" } });
    const chips = chipsIn(del);
    expect(chips).toHaveLength(1);
    expect(text(del)).toMatch(SUMMARY);
    expect(text(del)).toContain("removed text kept as chip://");
    expect(text(del)).toContain("\n-line 4\n-line 5\n-line 6\n");
    expect(readFileSync(file, "utf8")).not.toContain("line 5");
    const list = await c.callTool({ name: "be-insert-chip", arguments: {} });
    expect(text(list)).toMatch(
      new RegExp(`^${chips[0]} content be-delete \\d+B 3L .* from \\S+a\\.txt:4-6 \\| `),
    );
    const back = await c.callTool({ name: "be-insert-chip", arguments: { from: chips[0]! } });
    expect(back.isError).toBeFalsy();
    expect(text(back)).toMatch(/^inserted chip:\/\/[0-9a-f]{6}\ninsert \S+a\.txt: \+3 -0, 10 lines/);
    expect(text(back)).toContain("\n+line 4\n+line 5\n+line 6\n");
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });

  it("replaces exact text once, keeps the old text as a chip, and undoes it", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const rep = await c.callTool({
      name: "be-replace",
      arguments: { path: "a.txt", old: "line 7\n", content: "seven\n" },
    });
    expect(chipsIn(rep)).toHaveLength(1);
    expect(text(rep)).toContain("\n-line 7\n+seven\n");
    expect(readFileSync(file, "utf8")).toContain("seven");
    const amb = await c.callTool({
      name: "be-replace",
      arguments: { path: "a.txt", old: "line", content: "x" },
    });
    expect(text(amb)).toMatch(/^be_ambiguous_match: /);
    const undo = await c.callTool({ name: "be-undo", arguments: { path: "a.txt" } });
    expect(undo.isError).toBeFalsy();
    expect(text(undo)).toContain("\n-seven\n+line 7\n");
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });

  it("inserts after a line, previews without writing, and refuses a stale expected_hash", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const pre = await c.callTool({
      name: "be-insert",
      arguments: { path: "a.txt", after_line: 0, content: "top\n", preview: true },
    });
    expect(text(pre).match(SUMMARY)?.[7]).toBe("preview, nothing written");
    expect(text(pre)).toContain("\n+top\n");
    expect(readFileSync(file, "utf8")).toBe(FILE);
    const ins = await c.callTool({
      name: "be-insert",
      arguments: { path: "a.txt:2", content: "after two\n" },
    });
    expect(readFileSync(file, "utf8").split("\n")[2]).toBe("after two");
    expect(ins.isError).toBeFalsy();
    expect(text(ins).match(SUMMARY)?.slice(1, 6)).toEqual([
      "insert",
      join(box.root, "a.txt"),
      "1",
      "0",
      "11",
    ]);
    const stale = await c.callTool({
      name: "be-insert",
      arguments: { path: "a.txt", after_line: 0, content: "x\n", expected_hash: "0".repeat(64) },
    });
    expect(text(stale)).toMatch(/^be_conflict: /);
  });

  it("keeps the arguments of a failed be-write as a chip and replays its content with be-insert-chip", async () => {
    const box = sandbox();
    const c = await client(box);
    const content = "precious content that must not be lost\n".repeat(3);
    const failed = await c.callTool({ name: "be-write", arguments: { path: "/etc/outside.txt", content } });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/^be_outside_roots: .*\(saved as chip:\/\/([0-9a-f]{6})\)$/);
    const id = /chip:\/\/([0-9a-f]{6})/.exec(text(failed))![1]!;
    const target = join(box.root, "new.txt");
    writeFileSync(target, "");
    const put = await c.callTool({
      name: "be-insert-chip",
      arguments: { from: `chip://${id}`, to: `file://${target}:0` },
    });
    expect(put.isError).toBeFalsy();
    expect(readFileSync(target, "utf8")).toBe(content);
  });

  it("keeps overwritten text when be-write replaces a file, and inserts a file's text by file:// URI", async () => {
    const box = sandbox();
    writeFileSync(join(box.root, "a.txt"), FILE);
    writeFileSync(join(box.root, "b.txt"), "b1\nb2\n");
    const c = await client(box);
    const w = await c.callTool({ name: "be-write", arguments: { path: "a.txt", content: "new\n" } });
    expect(chipsIn(w)).toHaveLength(1);
    expect(text(w)).toContain("\n+new\n");
    const ins = await c.callTool({
      name: "be-insert-chip",
      arguments: { from: `file://${join(box.root, "b.txt")}`, to: `file://${join(box.root, "a.txt")}:1` },
    });
    expect(ins.isError).toBeFalsy();
    expect(readFileSync(join(box.root, "a.txt"), "utf8")).toBe("new\nb1\nb2\n");
  });

  it("confines paths to the roots, symlinks included, for targets and chip sources alike", async () => {
    const box = sandbox();
    symlinkSync("/etc", join(box.root, "escape"));
    const c = await client(box);
    const r = await c.callTool({ name: "be-read", arguments: { path: "escape/hostname" } });
    expect(text(r)).toMatch(/^be_outside_roots: /);
    const src = await c.callTool({
      name: "be-insert-chip",
      arguments: { from: "file:///etc/hostname", to: `file://${box.root}/x:0` },
    });
    expect(text(src)).toMatch(/^be_outside_roots: /);
  });

  it("answers a missing chip and a chip without origin with typed errors", async () => {
    const c = await client(sandbox());
    const missing = await c.callTool({ name: "be-insert-chip", arguments: { from: "chip://abcdef" } });
    expect(text(missing)).toMatch(/^be_chip_not_found: /);
    const bad = await c.callTool({ name: "be-insert-chip", arguments: { from: "nonsense" } });
    expect(text(bad)).toMatch(/^be_invalid_argument: /);
  });

  it("refuses a delete past the end, a replace with no match and an undo with nothing to undo, changing nothing", async () => {
    const box = sandbox();
    const file = join(box.root, "a.txt");
    writeFileSync(file, FILE);
    const c = await client(box);
    const del = await c.callTool({ name: "be-delete", arguments: { path: "a.txt:20-30" } });
    expect(del.isError).toBe(true);
    expect(text(del)).toMatch(/^be_out_of_range: line 20 is past the end /);
    const rep = await c.callTool({
      name: "be-replace",
      arguments: { path: "a.txt", old: "no such text", content: "x" },
    });
    expect(text(rep)).toMatch(/^be_no_match: /);
    const undo = await c.callTool({ name: "be-undo", arguments: { path: "a.txt" } });
    expect(text(undo)).toMatch(/^be_nothing_to_undo: /);
    const stats = await c.callTool({ name: "caveman_stats", arguments: { verbose: true } });
    expect(text(stats)).toMatch(
      /^cave_invalid_arguments: caveman_stats: unknown key "verbose"; accepted: none/,
    );
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });

  it("registers only the requested families", async () => {
    const box = sandbox();
    box.env.CAVEMAN_TOOLS = "edit";
    const c = await client(box);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "be-batch",
        "be-delete",
        "be-insert",
        "be-insert-chip",
        "be-read",
        "be-replace",
        "be-undo",
        "be-write",
      ].sort(),
    );
  });
});
