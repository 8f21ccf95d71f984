import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { editHarness } from "../testing.test-helpers.js";

const FILE = "a\nb\nc\nd\n";

function setup() {
  return editHarness(FILE);
}

const chipOf = (text: string) => /chip:\/\/([0-9a-f]{6})/.exec(text)?.[0] ?? "";

describe("be-insert-chip", () => {
  it("puts a be-delete chip back where it came from when `to` is omitted", async () => {
    const { file, call } = setup();
    const del = await call("be-delete", { path: "f.txt:2-3" });
    expect(readFileSync(file, "utf8")).toBe("a\nd\n");
    const back = await call("be-insert-chip", { from: chipOf(del.text) });
    expect(back.r.isError).toBeFalsy();
    expect(back.text).toMatch(/^inserted chip:\/\//);
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });

  it("refuses to guess a destination for text a replace overwrote, changing nothing", async () => {
    const { file, call } = setup();
    const rep = await call("be-replace", { path: "f.txt:2", content: "B\n" });
    const after = readFileSync(file, "utf8");
    const back = await call("be-insert-chip", { from: chipOf(rep.text) });
    expect(back.r.isError).toBe(true);
    expect(back.text).toMatch(/^be_chip_not_insertable: chip:\/\/\w+ was overwritten by be-replace.*be-undo/);
    expect(readFileSync(file, "utf8")).toBe(after);
    const explicit = await call("be-insert-chip", { from: chipOf(rep.text), to: `file://${file}:0` });
    expect(explicit.r.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe(`b\n${after}`);
  });

  it("rejects hostile sources and targets with typed codes and leaves files alone", async () => {
    const { file, call, root } = setup();
    const cases: Array<[unknown, RegExp]> = [
      [{ from: "chip://../../etc/passwd" }, /^be_invalid_argument: /],
      [{ from: "file:///etc/hostname", to: `file://${file}:0` }, /^be_outside_roots: /],
      [{ from: `file://${file}`, to: "file:///etc/hostname:0" }, /^be_outside_roots: /],
      [{ from: `file://${file}`, to: `file://${root}/../escape.txt:0` }, /^be_outside_roots: /],
      [{ from: `file://${file}`, to: `file://${file}:99` }, /^be_out_of_range: /],
      [{ to: `file://${file}:0` }, /^be_invalid_argument: `to` needs a `from`/],
      [{ from: "chip://abcdef" }, /^be_chip_not_found: /],
      [{ from: `file://${file}` }, /^be_chip_not_insertable: file:\/\/.* has no origin/],
    ];
    for (const [args, code] of cases) {
      const r = await call("be-insert-chip", args);
      expect(r.r.isError, JSON.stringify(args)).toBe(true);
      expect(r.text).toMatch(code);
    }
    expect(readFileSync(file, "utf8")).toBe(FILE);
  });

  it("inserts the text a failed call tried to write (content, or new), not its JSON", async () => {
    const { file, call, chips } = setup();
    const failed = chips.saveFailure({
      tool: "be-replace",
      args: { path: "f.txt", old: "a much longer old text that is not what we want back\n", new: "NEW\n" },
      errMsg: 'cave_invalid_arguments: unknown key "new"',
    });
    const r = await call("be-insert-chip", { from: `chip://${failed.chip!.id}`, to: `file://${file}:1` });
    expect(r.r.isError).toBeFalsy();
    expect(readFileSync(file, "utf8")).toBe("a\nNEW\nb\nc\nd\n");
  });

  it("lists chips with their origin when called with no arguments", async () => {
    const { call } = setup();
    expect((await call("be-insert-chip", {})).text).toBe("no chips");
    const del = await call("be-delete", { path: "f.txt:4" });
    const list = await call("be-insert-chip", {});
    expect(list.text).toContain(chipOf(del.text));
    expect(list.text).toMatch(/be-delete .* from .*f\.txt:4-4/);
  });
});
