// Host tier for the PreToolUse wrapper and the whole-file Read: one real Claude Code run with
// `caveman-mcp hook claude-code` on PreToolUse (Bash) and PostToolUse, as the plugin registers it.
// The scripted model runs a failing pytest-like command whose output is far over the host's
// 30,000-character limit (unwrapped, Claude Code sends it to PostToolUseFailure and cuts its
// middle), and Reads a JSON file of 9,003 lines (unwrapped, Read returns only its first
// lines, which are not JSON). Asserted on what the model received, then on what its handles give
// back: the model's own retrieve, and the store read whole through the CLI.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findClaude, runClaude, SERVER_CLI, skipReason, type Workspace, workspace } from "./claude.js";
import { type Received, type ScriptedTurn, startFakeModel } from "./fakeModel.js";

const HANDLE = /ccr_[0-9a-f]{32}/;
const HEADER =
  /^(?:\s*\d+\t)?\[caveman: (\w+) compressed, (\d+) -> (\d+) tokens; original: caveman_retrieve recovery_handle "(ccr_[0-9a-f]{32})"/m;

interface Seeded {
  /** What the test command prints (stdout and stderr, in order), byte for byte. */
  testOutput: string;
  json: string;
}

function seed(ws: Workspace): Seeded {
  const out: string[] = [
    "",
    "============================= test session starts ==============================",
    "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0",
    "collected 1501 items",
    "",
  ];
  for (let i = 0; i < 1500; i++)
    out.push(
      `tests/test_ledger.py::test_posting_${i} PASSED${" ".repeat(8)}[${String(Math.floor((i * 100) / 1501)).padStart(3)}%]`,
    );
  out.push(
    "tests/test_ledger.py::test_refund_rounding FAILED                          [100%]",
    "",
    "=================================== FAILURES ===================================",
    "_____________________________ test_refund_rounding _____________________________",
    "",
    "    def test_refund_rounding():",
    ">       assert refund(1999, 0.15) == 300",
    "E       assert 299 == 300",
    "E        +  where 299 = refund(1999, 0.15)",
    "",
    "tests/test_ledger.py:88: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_ledger.py::test_refund_rounding - assert 299 == 300",
    "======================== 1 failed, 1500 passed in 7.02s ========================",
    "",
    "",
  );
  const testOutput = out.join("\n");
  writeFileSync(join(ws.root, "test-output.txt"), testOutput);
  // The failure summary goes to stderr, as pytest's own warnings do: one capture keeps the order.
  writeFileSync(
    join(ws.root, "run-tests.mjs"),
    [
      'import { readFileSync, writeSync } from "node:fs";',
      'const text = readFileSync(new URL("./test-output.txt", import.meta.url), "utf8");',
      'const cut = text.indexOf("=========================== short test summary");',
      "writeSync(1, text.slice(0, cut));",
      "writeSync(2, text.slice(cut));",
      "process.exitCode = 1;",
      "",
    ].join("\n"),
  );
  const records = Array.from({ length: 1500 }, (_, i) => ({
    id: i,
    account: `acct-${i}`,
    status: i === 1431 ? "failed" : "ok",
    amount: (i * 37) % 1000,
  }));
  const json = `${JSON.stringify(records, null, 2)}\n`;
  writeFileSync(join(ws.root, "ledger.json"), json);
  return { testOutput, json };
}

const unavailable = skipReason();

describe.skipIf(unavailable !== undefined)("failing commands and long data files in Claude Code", () => {
  it("a failing run reaches the model compressed with its exit status and a byte-exact handle; a long JSON Read is read whole", async () => {
    const claude = findClaude();
    if (!("path" in claude)) throw new Error(claude.missing);
    const ws = workspace();
    try {
      const seeded = seed(ws);
      expect(seeded.testOutput.length).toBeGreaterThan(30_000);
      expect(seeded.json.split("\n").length).toBeGreaterThan(9_000);
      const turns: ScriptedTurn[] = [
        () => [{ type: "tool_use", name: "Bash", input: { command: "node run-tests.mjs" } }],
        () => [{ type: "tool_use", name: "Read", input: { file_path: join(ws.root, "ledger.json") } }],
        (results) => {
          const handles = ["t0_0", "t1_0"].map((id) => HANDLE.exec(results.get(id)?.text ?? "")?.[0]);
          return handles.every(Boolean)
            ? handles.map((h) => ({
                type: "tool_use" as const,
                name: "mcp__caveman__caveman_retrieve",
                input: { recovery_handle: h },
              }))
            : [{ type: "text", text: "no handles" }];
        },
        () => [{ type: "text", text: "done" }],
      ];
      const fake = await startFakeModel(turns);
      const debugFile = join(ws.base, "debug.txt");
      const settings = join(ws.base, "settings.json");
      const hookConfig = join(ws.base, "hooks.json");
      // A loaded machine must not turn a slow hook start into a silent pass-through.
      writeFileSync(hookConfig, JSON.stringify({ budget_ms: 30000 }));
      const hook = {
        type: "command",
        command: `"${process.execPath}" "${SERVER_CLI}" hook claude-code`,
        timeout: 30,
      };
      writeFileSync(
        settings,
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [hook] }],
            PostToolUse: [{ matcher: "Bash|Read|Grep|mcp__.*", hooks: [hook] }],
          },
        }),
      );
      let run: Awaited<ReturnType<typeof runClaude>>;
      try {
        run = await runClaude({
          claude: claude.path,
          apiUrl: fake.url,
          ws,
          prompt: "Run the tests and read the ledger.",
          args: ["--settings", settings, "--debug-file", debugFile, "--tools", "Bash,Read"],
          env: { CAVEMAN_CCR_DB: ws.db, CAVEMAN_HOOK_CONFIG: hookConfig },
        });
      } finally {
        await fake.close();
      }
      const debug = existsSync(debugFile) ? readFileSync(debugFile, "utf8") : "";
      const results = fake.results();
      if (process.env.HOST_TEST_DUMP) {
        for (const [id, r] of results) console.log(id, r.isError, JSON.stringify(r.text.slice(0, 1500)));
        console.log(
          debug
            .split("\n")
            .filter((l) => /hook/i.test(l))
            .join("\n")
            .slice(0, 20000),
        );
      }
      expect(run.code, `exit ${run.code}; stderr: ${run.stderr.slice(-2000)}`).toBe(0);
      expect(fake.scriptErrors).toEqual([]);

      // The failing run: an error result (the exit status reached the model), compressed, the
      // failure and the summary in view, the host's own cut nowhere.
      const failing = results.get("t0_0") as Received;
      expect(failing, "no result for the failing run").toBeDefined();
      expect(failing.isError).toBe(true);
      expect(failing.text).toMatch(/exit code 1/i);
      const head = HEADER.exec(failing.text);
      expect(head, `no header in ${failing.text.slice(0, 400)}`).not.toBeNull();
      expect(Number(head![3])).toBeLessThanOrEqual(700);
      for (const piece of [
        ">       assert refund(1999, 0.15) == 300",
        "E       assert 299 == 300",
        "tests/test_ledger.py:88: AssertionError",
        "FAILED tests/test_ledger.py::test_refund_rounding - assert 299 == 300",
        "1 failed, 1500 passed in 7.02s",
      ])
        expect.soft(failing.text, piece).toContain(piece);
      expect(failing.text).not.toMatch(/characters truncated/);
      expect(failing.text.length).toBeLessThan(seeded.testOutput.length / 10);

      // The Read: the whole file compressed, the line Read had cut off in view, the cut named.
      const read = results.get("t1_0") as Received;
      expect(read, "no result for the Read").toBeDefined();
      expect(read.isError).toBe(false);
      const readHead = HEADER.exec(read.text);
      expect(readHead, `no header in ${read.text.slice(0, 400)}`).not.toBeNull();
      expect(Number(readHead![3])).toBeLessThanOrEqual(700);
      // Claude Code 2.1.328 cuts a Read by size: this file arrives as its first ~4,700 lines.
      const cutAt = /Read had returned lines 1-(\d+) only/.exec(read.text);
      expect(cutAt, "the note naming the lines Read had returned").not.toBeNull();
      expect(Number(cutAt![1])).toBeLessThan(seeded.json.split("\n").length - 1);
      expect(read.text).toContain('"status":"failed"');

      // Each handle's original, read through the CLI from the store the hook wrote: byte-exact
      // with what the command printed (untrimmed, both streams) and with the whole file.
      const original = (handle: string) =>
        execFileSync(process.execPath, [SERVER_CLI, "retrieve", handle, "--db", ws.db], {
          encoding: "utf8",
          maxBuffer: 64 << 20,
        });
      expect(original(head![4]!) === seeded.testOutput, "the failing run's original is byte-exact").toBe(
        true,
      );
      expect(original(readHead![4]!) === seeded.json, "the file's original is the whole file").toBe(true);
      // The model's own retrieves name no error and start the originals (a large one is paged).
      for (const [id, want] of [
        ["t2_0", seeded.testOutput],
        ["t2_1", seeded.json],
      ] as const) {
        const r = results.get(id);
        expect(r, `${id}: no retrieve result`).toBeDefined();
        expect(r!.isError, `${id}: ${r!.text.slice(0, 300)}`).toBe(false);
        const page = r!.blocks[0]?.text ?? "";
        expect(page.length).toBeGreaterThan(0);
        expect(
          want.startsWith(page.replace(/\n\[caveman: page 1 of \d+[^\n]*\]$/, "")),
          `${id} starts the original`,
        ).toBe(true);
      }
      console.log(
        `[host] failing: Claude Code run ${run.ms} ms; failing run ${seeded.testOutput.length} chars -> ${failing.text.length} received (${head![2]} -> ${head![3]} tokens); ledger.json ${seeded.json.length} chars -> ${read.text.length} received (${readHead![2]} -> ${readHead![3]} tokens)`,
      );
    } finally {
      if (!process.env.HOST_TEST_KEEP) rmSync(ws.base, { recursive: true, force: true });
    }
  });
});
