// Every tool through the real binary, read the two ways hosts read a result: only the text blocks,
// and only `structuredContent` when present (what Claude Code gives its model). Each success and
// each typical failure must show its content — lines, diff, compressed text, original, chip ids,
// the error code and the failure's chip — to both readers.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connect, readings, sandbox } from "./helpers.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

const LOG = `${Array.from({ length: 300 }, (_, i) =>
  i % 50 === 7
    ? `2026-11-30T12:00:${String(i % 60).padStart(2, "0")}Z ERROR job ${i} failed: disk_full`
    : `2026-11-30T12:00:${String(i % 60).padStart(2, "0")}Z INFO job ${i} done in ${i % 9} ms`,
).join("\n")}\n`;
const WITH_CHIP = (code: string) => new RegExp(`^(?:${code}): .*\\(saved as chip://[0-9a-f]{6}\\)$`, "s");

describe("both readings of every tool's result (real process)", () => {
  it("shows every tool's payload, and every failure's code and chip, to text-only and structured-only clients", async () => {
    const box = sandbox();
    const file = join(box.root, "notes", "long_file_name_for_chips.txt");
    const rel = "notes/long_file_name_for_chips.txt";
    mkdirSync(join(box.root, "notes"));
    writeFileSync(file, "one\ntwo\nthree\nfour\n");
    const { client } = await connect(box);
    open.push(client);
    const seen: string[] = [];
    /** Calls a tool and checks both readings against each pattern; returns the reading. */
    const check = async (name: string, args: Record<string, unknown>, ...want: Array<string | RegExp>) => {
      const r = await client.callTool({ name, arguments: args });
      const { textOnly, structuredOnly } = readings(r);
      for (const [who, view] of [
        ["text-only", textOnly],
        ["structured-only", structuredOnly],
      ] as const) {
        for (const w of want) {
          if (typeof w === "string") expect(view, `${name} to a ${who} client`).toContain(w);
          else expect(view, `${name} to a ${who} client`).toMatch(w);
        }
      }
      seen.push(name);
      return textOnly;
    };

    const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(
      await check(
        "caveman_compress",
        { input: LOG, hint: "log" },
        "ERROR job 7 failed: disk_full",
        /^\[caveman: log compressed, \d+ -> \d+ tokens;/,
      ),
    )?.[1];
    expect(handle).toMatch(/^ccr_/);
    await check(
      "caveman_compress",
      { input: "short", hint: "no such kind of content at all" },
      /^short\n\[caveman: not compressed \(below_floor\)/,
    );
    await check(
      "caveman_compress",
      { input: "some text that the model meant to compress", level: 9 },
      WITH_CHIP("cave_invalid_arguments"),
    );
    await check(
      "caveman_retrieve",
      { recovery_handle: handle, query: "disk_full" },
      "ERROR job 57 failed: disk_full",
    );
    expect(await check("caveman_retrieve", { recovery_handle: handle })).toBe(LOG);
    await check(
      "caveman_retrieve",
      { recovery_handle: "ccr_0123456789abcdef0123456789abcdef" },
      WITH_CHIP("cave_unknown_handle"),
    );
    await check("caveman_stats", {}, /"saved_tokens_net":-?\d+/, '"basis":"inferred"');
    await check(
      "caveman_stats",
      { detail: "figures per kind for the whole session" },
      WITH_CHIP("cave_invalid_arguments"),
    );
    await check(
      "caveman_toon_encode",
      { input: '{"rows":[{"a":1,"b":2},{"a":3,"b":4}]}' },
      "rows[2]{a,b}:\n  1,2\n  3,4",
      /tokens\]$/,
    );
    await check("caveman_toon_encode", { input: "{not json" }, /^\{not json\n\[caveman: not encoded/);
    await check(
      "caveman_toon_decode",
      { input: "rows[2]{a,b}:\n  1,2\n  3,4" },
      '"rows"',
      /bytes; \d+ -> \d+ tokens\]$/,
    );
    await check(
      "caveman_toon_decode",
      { input: "rows[3]{a,b}:\n  1,2\n  3,4\n# padding to pass the chip threshold" },
      WITH_CHIP("cave_toon_invalid"),
    );

    await check("be-read", { path: `${rel}:2-3` }, "2\ttwo\n3\tthree", / of 4, hash [0-9a-f]{64}/);
    await check("be-read", { path: rel, start_line: 90 }, WITH_CHIP("be_out_of_range"));
    await check("be-write", { path: "notes/new.txt", content: "alpha\n" }, "+alpha");
    await check(
      "be-write",
      { path: "/etc/caveman-outside.txt", content: "kept\n" },
      WITH_CHIP("be_outside_roots"),
    );
    await check("be-insert", { path: rel, after_line: 0, content: "zero\n" }, "+zero");
    await check(
      "be-insert",
      { path: rel, after_line: 99, content: "past the end\n" },
      WITH_CHIP("be_out_of_range"),
    );
    await check(
      "be-replace",
      { path: rel, old: "two\n", content: "2\n" },
      "-two\n+2",
      /kept as chip:\/\/[0-9a-f]{6}/,
    );
    await check("be-replace", { path: rel, old: "o", content: "0" }, WITH_CHIP("be_ambiguous_match"));
    const del = await check("be-delete", { path: `${rel}:4` }, "-three", /kept as chip:\/\/[0-9a-f]{6}/);
    const chip = /chip:\/\/[0-9a-f]{6}/.exec(del)![0];
    await check("be-delete", { path: rel, start_line: 40, end_line: 41 }, WITH_CHIP("be_out_of_range"));
    await check("be-insert-chip", {}, chip);
    await check("be-insert-chip", { from: chip }, `inserted ${chip}`, "+three");
    await check(
      "be-insert-chip",
      { from: "chip://000000", to: `file://${file}:0` },
      WITH_CHIP("be_chip_not_found"),
    );
    await check("be-undo", { path: rel }, "-three");
    await check(
      "be-undo",
      { path: "notes/a_long_file_name_that_was_never_edited.txt" },
      WITH_CHIP("be_not_found|be_nothing_to_undo"),
    );
    expect(readFileSync(file, "utf8")).toBe("zero\none\n2\nfour\n");
    await check(
      "be-batch",
      {
        path: rel,
        edits: [
          { start_line: 1, content: "ZERO" },
          { after_line: 4, content: "five" },
        ],
      },
      "-zero\n+ZERO",
      "+five",
    );
    await check(
      "be-batch",
      {
        path: rel,
        edits: [
          { start_line: 1, end_line: 2, content: "a" },
          { start_line: 2, content: "b" },
        ],
      },
      WITH_CHIP("be_invalid_range"),
    );

    const { tools } = await client.listTools();
    expect(new Set(seen)).toEqual(new Set(tools.map((t) => t.name)));
  });
});
