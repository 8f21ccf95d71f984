// The scripted tool calls of the host tests: for each of the thirteen tools a success and a typical
// failure, in the order one conversation makes them, with what the model must find in each
// result. Every failing call's arguments are over the 50-byte chip threshold, so its error must
// reach the model with the `chip://` id that keeps those arguments.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Received } from "./fakeModel.js";

export interface Case {
  /** Unique label; also names the case in the characters-received table. */
  id: string;
  tool: string;
  /** The arguments, possibly built from results received earlier in the same conversation. */
  input: (got: (id: string) => Received | undefined) => Record<string, unknown>;
  /** Checks on what the model received; `fail` reports a missing piece of content. */
  check: (r: Received, got: (id: string) => Received | undefined) => void;
  /** Marks the case whose size goes in the per-tool table. */
  measure?: boolean;
}

export interface Expect {
  contains(r: Received, piece: string, what: string): void;
  /** `actual === expected`, reported without printing either (they can be large). */
  same(r: Received, actual: string, expected: string, what: string): void;
  matches(r: Received, re: RegExp, what: string): void;
  isError(r: Received, yes: boolean): void;
}

const CHIP = /chip:\/\/([0-9a-z]{6,})/;
const ERROR_WITH_CHIP = (code: string) => new RegExp(`${code}: [\\s\\S]*\\(saved as chip://[0-9a-z]{6,}\\)`);

function chipIn(r: Received | undefined): string {
  const m = r ? CHIP.exec(r.text) : null;
  return m ? `chip://${m[1]}` : "chip://missing";
}

export function handleOf(text: string): string {
  return `ccr_${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32)}`;
}

/** A deterministic ~20 KB service log: repeated request lines and a few errors with a trace. */
export function serviceLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 240; i++) {
    const ts = `2026-11-30T12:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.${String((i * 37) % 1000).padStart(3, "0")}Z`;
    if (i % 60 === 41) {
      lines.push(`${ts} ERROR payment id=${9000 + i} failed: card_declined (upstream 402)`);
      lines.push("    at chargeCard (src/payments/charge.ts:88:13)");
      lines.push("    at handler (src/routes/checkout.ts:41:5)");
    } else {
      lines.push(
        `${ts} INFO request id=${1000 + i} method=GET path=/api/users/${i % 13} status=200 duration_ms=${(i * 7) % 90}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

const TOON_JSON = JSON.stringify({
  users: [
    { id: 1, name: "ada", role: "admin" },
    { id: 2, name: "brian", role: "viewer" },
    { id: 3, name: "chen", role: "editor" },
  ],
});

/** The compression family: compress, retrieve (full, narrowed), stats, TOON both ways. */
export function compressionCases(x: Expect, log: string): Case[] {
  const handle = handleOf(log);
  return [
    {
      id: "caveman_compress",
      tool: "caveman_compress",
      measure: true,
      input: () => ({ input: log, hint: "log" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "ERROR payment id=9041 failed: card_declined", "a kept error line");
        x.contains(r, handle, "the recovery handle");
        x.matches(r, /\[caveman: log compressed, \d+ -> \d+ tokens;/, "the header's figures");
        if (r.text.length >= log.length / 2) x.matches(r, /^$/, "compressed text (got nearly the input)");
      },
    },
    {
      id: "caveman_compress pass-through",
      tool: "caveman_compress",
      input: () => ({ input: "a short note that is not worth compressing" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "a short note that is not worth compressing", "the input, unchanged");
        x.contains(r, "below_floor", "the pass-through reason");
      },
    },
    {
      id: "caveman_compress bad args",
      tool: "caveman_compress",
      input: () => ({ input: "some text that the model wanted to compress", level: 9 }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("cave_invalid_arguments"), "code and chip id");
        x.contains(r, 'unknown key "level"', "the unknown key");
      },
    },
    {
      id: "caveman_retrieve query",
      tool: "caveman_retrieve",
      input: () => ({ recovery_handle: handle, query: "card_declined" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "ERROR payment id=9101 failed: card_declined", "a matching line");
        if (r.text.includes("request id=1000 ")) x.matches(r, /^$/, "a narrowed view (got unrelated lines)");
      },
    },
    {
      id: "caveman_retrieve",
      tool: "caveman_retrieve",
      measure: true,
      input: () => ({ recovery_handle: handle }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, log, "the byte-exact original");
      },
    },
    {
      id: "caveman_retrieve unknown",
      tool: "caveman_retrieve",
      input: () => ({ recovery_handle: "ccr_0123456789abcdef0123456789abcdef" }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("cave_unknown_handle"), "code and chip id");
      },
    },
    {
      id: "caveman_stats",
      tool: "caveman_stats",
      measure: true,
      input: () => ({}),
      check: (r) => {
        x.isError(r, false);
        x.matches(r, /"saved_tokens_net":\s*-?\d+/, "saved tokens");
        x.matches(r, /"calls":\s*2/, "the call count");
        x.contains(r, '"inferred"', "the basis");
      },
    },
    {
      id: "caveman_stats bad args",
      tool: "caveman_stats",
      input: () => ({ detail: "figures per kind for this whole session, please" }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("cave_invalid_arguments"), "code and chip id");
      },
    },
    {
      id: "caveman_toon_encode",
      tool: "caveman_toon_encode",
      measure: true,
      input: () => ({ input: TOON_JSON }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "users[3]{id,name,role}:", "the TOON header");
        x.contains(r, "2,brian,viewer", "a TOON row");
        x.matches(r, /tokens/, "the sizes");
      },
    },
    {
      id: "caveman_toon_encode bad json",
      tool: "caveman_toon_encode",
      input: () => ({ input: '{"users": [1, 2,' }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, '{"users": [1, 2,', "the input, unchanged");
        x.contains(r, "not encoded", "the note");
      },
    },
    {
      id: "caveman_toon_decode",
      tool: "caveman_toon_decode",
      measure: true,
      input: () => ({ input: "users[2]{id,name}:\n  1,ada\n  2,brian" }),
      check: (r) => {
        x.isError(r, false);
        x.matches(r, /\{\s*"users":\s*\[\s*\{\s*"id":\s*1,\s*"name":\s*"ada"/, "the JSON");
      },
    },
    {
      id: "caveman_toon_decode bad toon",
      tool: "caveman_toon_decode",
      input: () => ({ input: "users[3]{id,name,role}:\n  1,ada,admin\n  2,brian,viewer" }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("cave_toon_invalid"), "code and chip id");
      },
    },
  ];
}

/**
 * A retrieve too large for Claude Code to show inline (it keeps MCP results under a token limit):
 * the model gets Claude Code's pointer to a file, and that file must hold the original byte-exact,
 * so nothing is lost silently on the way.
 */
export function oversizeCases(x: Expect, big: string): Case[] {
  return [
    {
      id: "caveman_compress big",
      tool: "caveman_compress",
      input: () => ({ input: big }),
      check: (r) => x.contains(r, `recovery_handle "${handleOf(big)}"`, "the recovery handle"),
    },
    {
      id: "caveman_retrieve big",
      tool: "caveman_retrieve",
      input: () => ({ recovery_handle: handleOf(big) }),
      check: (r) => {
        x.isError(r, false);
        const file = /saved to (\S+?\.txt)/.exec(r.text)?.[1];
        x.matches(r, /saved to \S+\.txt/, "Claude Code's pointer to the saved result");
        if (file) x.same(r, readFileSync(file, "utf8"), big, "the saved file, byte-exact");
      },
    },
  ];
}

/** The file the edit cases work on; its name keeps failing arguments over the chip threshold. */
const EDIT_FILE = "src/module/long_file_name.txt";
const UNTOUCHED_FILE = "src/module/a_file_that_was_never_edited.txt";

export function seedEditFiles(root: string): void {
  for (const [rel, text] of [
    [EDIT_FILE, `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n")}\n`],
    [UNTOUCHED_FILE, "untouched\n"],
  ] as const) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** The edit family, each tool's success then a typical failure, on one evolving file. */
export function editCases(x: Expect, root: string): Case[] {
  const P = EDIT_FILE;
  return [
    {
      id: "be-read",
      tool: "be-read",
      measure: true,
      input: () => ({ path: `${P}:3-6` }),
      check: (r) => {
        x.isError(r, false);
        for (const n of [3, 4, 5, 6]) x.matches(r, new RegExp(`${n}\\s+line ${n}\\b`), `line ${n}`);
        x.matches(r, /\b12\b/, "the total line count");
        x.matches(r, /[0-9a-f]{64}/, "the hash");
      },
    },
    {
      id: "be-read out of range",
      tool: "be-read",
      input: () => ({ path: P, start_line: 90 }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_out_of_range"), "code and chip id");
      },
    },
    {
      id: "be-write",
      tool: "be-write",
      input: () => ({ path: "src/module/new_file.txt", content: "alpha\nbeta\n" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "+alpha", "the diff");
      },
    },
    {
      id: "be-write overwrite",
      tool: "be-write",
      measure: true,
      input: () => ({ path: "src/module/new_file.txt", content: "gamma\n" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "-alpha", "the removed line in the diff");
        x.contains(r, "+gamma", "the added line in the diff");
        x.matches(r, CHIP, "the chip of the overwritten text");
      },
    },
    {
      id: "be-write outside roots",
      tool: "be-write",
      input: () => ({ path: "/etc/caveman-outside.txt", content: "text that must not be lost\n" }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_outside_roots"), "code and chip id");
      },
    },
    {
      id: "be-insert",
      tool: "be-insert",
      measure: true,
      input: () => ({ path: P, after_line: 2, content: "inserted\n" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "+inserted", "the diff");
      },
    },
    {
      id: "be-insert out of range",
      tool: "be-insert",
      input: () => ({ path: P, after_line: 999, content: "will not fit here\n" }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_out_of_range"), "code and chip id");
      },
    },
    {
      id: "be-replace",
      tool: "be-replace",
      measure: true,
      input: () => ({ path: P, old: "line 7\n", content: "seven\n" }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "-line 7", "the removed line in the diff");
        x.contains(r, "+seven", "the added line in the diff");
        x.matches(r, CHIP, "the chip of the replaced text");
      },
    },
    {
      id: "be-replace ambiguous",
      tool: "be-replace",
      input: () => ({ path: P, old: "line", content: "x" }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_ambiguous_match"), "code and chip id");
      },
    },
    {
      id: "be-delete",
      tool: "be-delete",
      measure: true,
      input: () => ({ path: `${P}:10-11` }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "-line 9", "the diff");
        x.matches(r, CHIP, "the chip of the deleted text");
      },
    },
    {
      id: "be-delete out of range",
      tool: "be-delete",
      input: () => ({ path: P, start_line: 50, end_line: 60 }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_out_of_range"), "code and chip id");
      },
    },
    {
      id: "be-insert-chip list",
      tool: "be-insert-chip",
      input: () => ({}),
      check: (r, got) => {
        x.isError(r, false);
        x.contains(r, chipIn(got("be-delete")).slice("chip://".length), "the deleted text's chip id");
      },
    },
    {
      id: "be-insert-chip",
      tool: "be-insert-chip",
      measure: true,
      input: (got) => ({ from: chipIn(got("be-delete")) }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "+line 9", "the diff of the restored text");
      },
    },
    {
      id: "be-insert-chip missing",
      tool: "be-insert-chip",
      input: () => ({ from: "chip://000000", to: `file://${join(root, P)}:0` }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_chip_not_found"), "code and chip id");
      },
    },
    {
      id: "be-undo",
      tool: "be-undo",
      measure: true,
      input: () => ({ path: P }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "-line 9", "the diff of the undone insert");
      },
    },
    {
      id: "be-undo nothing",
      tool: "be-undo",
      input: () => ({ path: UNTOUCHED_FILE }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_nothing_to_undo"), "code and chip id");
      },
    },
    {
      id: "be-batch",
      tool: "be-batch",
      measure: true,
      input: () => ({
        path: P,
        edits: [
          { start_line: 1, content: "first" },
          { after_line: 3, content: "after three" },
        ],
      }),
      check: (r) => {
        x.isError(r, false);
        x.contains(r, "-line 1", "the removed line in the diff");
        x.contains(r, "+first", "the first edit in the diff");
        x.contains(r, "+after three", "the second edit in the diff");
        x.matches(r, CHIP, "the chip of the replaced text");
      },
    },
    {
      id: "be-batch overlap",
      tool: "be-batch",
      input: () => ({
        path: P,
        edits: [
          { start_line: 4, end_line: 5, content: "overlapping edit" },
          { start_line: 5, content: "x" },
        ],
      }),
      check: (r) => {
        x.isError(r, true);
        x.matches(r, ERROR_WITH_CHIP("be_invalid_range"), "code and chip id");
      },
    },
  ];
}
