// Host tier for the PostToolUse hook and the MCP proxy: one real Claude Code run with
// `caveman-mcp hook claude-code` installed through `--settings`, the caveman server (retrieve) and a
// fixture server wrapped by `caveman-mcp proxy`, all sharing one CCR store. The scripted model makes
// the calls an agent makes (cat a big log, git diff, a failing test run, Read a JSON file, Grep,
// a wrapped MCP tool), then retrieves every handle it was given. Asserted on what the model
// received in the next request, never on what the hook printed; the debug log gives the host's
// verdict on each hook output.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findClaude, runClaude, SERVER_CLI, skipReason, type Workspace, workspace } from "./claude.js";
import { type Received, type ScriptedBlock, type ScriptedTurn, startFakeModel } from "./fakeModel.js";
import { handleOf } from "./scenarios.js";

const FIXTURE_SERVER = resolve(SERVER_CLI, "..", "..", "test", "fixtures", "wrapped-server.mjs");
const HANDLE = /ccr_[0-9a-f]{32}/;

/** The fixture server's `big_log` text (a copy: importing the fixture would start the server). */
function fixtureLog(lines = 3000): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      i === 1700
        ? "2026-11-02T09:00:00Z ERROR orders charge failed: card_declined"
        : `2026-11-02T09:00:00Z INFO http GET /api/items/${i % 50} 200 ${(i * 37) % 400}ms`,
    );
  return `${out.join("\n")}\n`;
}

interface Files {
  log: string;
  diff: string;
  json: string;
  testOutput: string;
}

/** The work dir: a big log, a git repo with a big uncommitted change, a JSON file, sources to grep, a failing test script. */
function seed(ws: Workspace): Files {
  const root = ws.root;
  const log: string[] = [];
  for (let i = 0; i < 3000; i++)
    log.push(
      i === 1700
        ? `2026-11-30T10:28:20.${String(i % 1000).padStart(3, "0")}Z ERROR payment id=${i} failed: card_declined (upstream 402)`
        : `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.${String((i * 37) % 1000).padStart(3, "0")}Z INFO request id=${i} method=GET path=/api/users/${i % 13} status=200 duration_ms=${(i * 7) % 90}`,
    );
  writeFileSync(join(root, "app.log"), `${log.join("\n")}\n`);

  // Twelve files with one 30-line block changed in each: a typical large change, over the host's
  // 30,000-character limit so it is persisted and the hook reads the host's file.
  const repo = join(root, "repo");
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: repo,
      encoding: "utf8",
      // The expected diff must not depend on this machine's git config (the CLI's HOME is empty).
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("init", "-q");
  const source = (f: number, changed: boolean) =>
    `${Array.from({ length: 300 }, (_, i) => `export const v${f}_${i} = compute(${i}, ${changed && i >= 100 && i < 130 ? '"beta"' : '"alpha"'});`).join("\n")}\n`;
  for (let f = 0; f < 12; f++) writeFileSync(join(repo, `m${f}.ts`), source(f, false));
  git("add", ".");
  git("commit", "-q", "-m", "init");
  for (let f = 0; f < 12; f++) writeFileSync(join(repo, `m${f}.ts`), source(f, true));
  const diff = git("--no-pager", "diff");

  const records = Array.from({ length: 400 }, (_, i) => ({
    id: i,
    user: `user${i}@example.com`,
    status: i === 217 ? "error" : "ok",
    amount: (i * 37) % 1000,
    note: i === 217 ? "chargeback_dispute_opened" : "settled normally",
  }));
  const json = `${JSON.stringify(records, null, 2)}\n`;
  writeFileSync(join(root, "data.json"), json);

  mkdirSync(join(root, "src"));
  for (let f = 0; f < 30; f++) {
    const lines = Array.from({ length: 40 }, (_, i) => `  useHandler("route${f}_${i}", handle${i});`);
    writeFileSync(join(root, "src", `mod${f}.ts`), `export function mod${f}() {\n${lines.join("\n")}\n}\n`);
  }

  // pytest-shaped output from a script, so the tier needs no Python: many passes, one failure.
  const out: string[] = [
    "============================= test session starts ==============================",
    "collected 401 items",
    "",
  ];
  for (let i = 0; i < 400; i++)
    out.push(
      `tests/test_payments.py::test_case_${i} PASSED${" ".repeat(10)}[${String(Math.floor((i * 100) / 401)).padStart(3)}%]`,
    );
  out.push(
    "tests/test_payments.py::test_refund_rounding FAILED                       [100%]",
    "",
    "=================================== FAILURES ===================================",
    "_____________________________ test_refund_rounding _____________________________",
    "",
    "    def test_refund_rounding():",
    ">       assert refund(1999, 0.15) == 300",
    "E       assert 299 == 300",
    "E        +  where 299 = refund(1999, 0.15)",
    "",
    "tests/test_payments.py:88: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_payments.py::test_refund_rounding - assert 299 == 300",
    "======================== 1 failed, 400 passed in 2.31s =========================",
  );
  const testOutput = `${out.join("\n")}\n`;
  writeFileSync(join(root, "test-output.txt"), testOutput);
  writeFileSync(
    join(root, "run-tests.mjs"),
    'import { readFileSync } from "node:fs";\nprocess.stdout.write(readFileSync(new URL("./test-output.txt", import.meta.url), "utf8"));\nprocess.exitCode = 1;\n',
  );
  return { log: `${log.join("\n")}\n`, diff, json, testOutput };
}

/** A scripted call, named for the checks. */
interface Call {
  id: string;
  block: ScriptedBlock;
}

const CALLS: Call[] = [
  { id: "cat log", block: { type: "tool_use", name: "Bash", input: { command: "cat app.log" } } },
  {
    id: "git diff",
    block: { type: "tool_use", name: "Bash", input: { command: "git --no-pager -C repo diff" } },
  },
  {
    id: "failing tests",
    block: { type: "tool_use", name: "Bash", input: { command: "node run-tests.mjs" } },
  },
  {
    id: "failing tests, exit masked",
    block: { type: "tool_use", name: "Bash", input: { command: 'node run-tests.mjs; echo "exit=$?"' } },
  },
  { id: "read json", block: { type: "tool_use", name: "Read", input: { file_path: "data.json" } } },
  {
    id: "grep",
    block: {
      type: "tool_use",
      name: "Grep",
      input: { pattern: "useHandler", output_mode: "content", "-n": true },
    },
  },
  { id: "wrapped mcp", block: { type: "tool_use", name: "mcp__fixture__big_log", input: {} } },
];

/**
 * The whole text a retrieve gave the model: inline, or in the file Claude Code saved a large
 * result to (`.txt` holds the text; a persisted `.json` holds the content blocks).
 */
function retrievedText(r: Received): string {
  const file = /saved to:? (\S+?\.(?:txt|json))\b/.exec(r.text)?.[1];
  if (!file) return r.text;
  const raw = readFileSync(file, "utf8");
  if (!file.endsWith(".json")) return raw;
  return (JSON.parse(raw) as Array<{ text?: string }>).map((b) => b.text ?? "").join("\n");
}

/** The debug log's verdict line for the hook's run on `tool`. */
function verdicts(debug: string, tool: string): string[] {
  const re = new RegExp(
    `"Hook PostToolUse:${tool} \\(PostToolUse\\) success:.*caveman-mcp hook claude-code: ([a-z_ ()]+)"`,
    "g",
  );
  return [...debug.matchAll(re)].map((m) => m[1] ?? "");
}

/** Checks every call and retrieve; returns the size table printed after the run. */
function checkAll(
  files: Files,
  debug: string,
  got: (id: string) => Received | undefined,
  results: Map<string, Received>,
  retrieveIds: Map<string, string>,
): string {
  const rows: string[] = [];
  const original: Record<string, string> = {
    "cat log": files.log,
    "git diff": files.diff,
    // Claude Code drops the trailing newline of a Bash output it keeps inline; the hook stores the
    // output as the host gave it (a persisted output, like `cat app.log`, keeps it).
    "failing tests, exit masked": `${files.testOutput}exit=1`,
    "read json": files.json,
    "wrapped mcp": fixtureLog(),
  };
  const compressed = (id: string, keep: string[]) => {
    const r = got(id);
    expect.soft(r, `${id}: no tool result reached the model`).toBeDefined();
    if (!r) return;
    expect.soft(r.isError, `${id}: is_error`).toBe(false);
    expect
      .soft(r.text, `${id}: the host's persisted-output stub reached the model`)
      .not.toContain("Output too large");
    expect
      .soft(r.text, `${id}: no recovery handle`)
      .toMatch(
        /\[caveman: \w+ compressed, \d+ -> \d+ tokens; original: caveman_retrieve recovery_handle "ccr_[0-9a-f]{32}"/,
      );
    for (const piece of keep) expect.soft(r.text, `${id}: ${piece} missing`).toContain(piece);
    const size = original[id]?.length ?? 0;
    if (size)
      expect
        .soft(r.text.length, `${id}: not compressed (${r.text.length} of ${size} chars)`)
        .toBeLessThan(size / 3);
  };
  compressed("cat log", ["ERROR payment id=1700 failed: card_declined (upstream 402)"]);
  // The engine folds a change repeated across files (numbers masked) into a "same change as line
  // N" marker: of the twelve files, the first file's +/- lines reach the model; every file's name
  // stays in view.
  compressed("git diff", ["diff --git a/m11.ts b/m11.ts", '+export const v0_100 = compute(100, "beta");']);
  const failure = [
    ">       assert refund(1999, 0.15) == 300",
    "E       assert 299 == 300",
    "tests/test_payments.py:88: AssertionError",
    "FAILED tests/test_payments.py::test_refund_rounding - assert 299 == 300",
  ];
  compressed("failing tests, exit masked", failure);
  compressed("read json", ['"status":"error"', "chargeback_dispute_opened"]);
  compressed("grep", ['src/mod0.ts:2:  useHandler("route0_0", handle0);', "src/mod14.ts:4:"]);
  compressed("wrapped mcp", ["ERROR orders charge failed: card_declined"]);

  // A non-zero exit goes to PostToolUseFailure, which this hook does not handle: nothing is
  // compressed and no handle is named; Claude Code itself cuts the middle of a long failing output
  // ("... [N characters truncated] ..."), and the failure at the end still reaches the model.
  const failing = got("failing tests");
  expect.soft(failing?.isError, "failing tests: is_error").toBe(true);
  for (const piece of failure) expect.soft(failing?.text, `failing tests: ${piece}`).toContain(piece);
  expect.soft(failing?.text, "failing tests: a handle").not.toMatch(HANDLE);

  // The host's verdict on each hook output: taken, never rejected as not matching the tool's shape.
  expect.soft(debug, "the host rejected a hook output").not.toMatch(/does not match/);
  // Three Bash calls succeeded and were compressed; the failing one never reached the hook.
  expect.soft(verdicts(debug, "Bash"), "Bash verdicts").toEqual(["compressed", "compressed", "compressed"]);
  expect.soft(verdicts(debug, "Read"), "Read verdicts").toEqual(["compressed"]);
  expect.soft(verdicts(debug, "Grep"), "Grep verdicts").toEqual(["compressed"]);
  // The proxy compressed the wrapped result already; the hook sees its stand-in and lets it be.
  expect
    .soft(verdicts(debug, "mcp__fixture__big_log"), "wrapped MCP verdict")
    .toEqual(["passed (already_compressed)"]);
  expect.soft(debug.match(/replaced tool output/g) ?? [], "outputs the host replaced").toHaveLength(5);

  // Every handle named to the model gives back its original, byte-exact, through the MCP server.
  expect
    .soft([...retrieveIds.keys()].sort(), "calls whose result named a handle")
    .toEqual([...Object.keys(original), "grep"].sort());
  for (const [id, rid] of retrieveIds) {
    const r = results.get(rid);
    expect.soft(r, `${id}: no retrieve result`).toBeDefined();
    if (!r) continue;
    expect.soft(r.isError, `${id}: retrieve is_error: ${r.text.slice(0, 300)}`).toBe(false);
    const text = retrievedText(r);
    const handle = HANDLE.exec(got(id)?.text ?? "")?.[0];
    expect.soft(handleOf(text), `${id}: the retrieved text is not what the handle names`).toBe(handle);
    const want = original[id];
    const via = /saved to:? \S+\.(txt|json)/.exec(r.text)?.[1] ?? "inline";
    rows.push(
      `  ${id.padEnd(28)} ${String(got(id)?.text.length).padStart(6)} chars received; retrieve ${String(text.length).padStart(6)} chars (${via})`,
    );
    if (want !== undefined)
      expect.soft(text === want, `${id}: retrieved ${text.length} chars, original ${want.length}`).toBe(true);
  }
  // The grep original is the host's content-mode output, which Claude Code caps at 250 lines by
  // default (files mod0..mod14 here): every one of those hits comes back.
  const grepText = retrieveIds.has("grep")
    ? retrievedText(results.get(retrieveIds.get("grep") ?? "") as Received)
    : "";
  const hits = grepText.split("\n").filter((l) => /^src\/mod\d+\.ts:\d+: {2}useHandler\(/.test(l));
  expect.soft(hits, "grep: every hit retrieved").toHaveLength(250);
  rows.push(
    `  ${"failing tests".padEnd(28)} ${String(failing?.text.length).padStart(6)} chars received (not compressed)`,
  );
  return rows.join("\n");
}

const unavailable = skipReason();

describe.skipIf(unavailable !== undefined)("the hook and the proxy in Claude Code", () => {
  it("compress what reaches the model, name a handle that retrieves the original, and keep a failure visible", async () => {
    const claude = findClaude();
    if (!("path" in claude)) throw new Error(claude.missing);
    const ws = workspace();
    try {
      const files = seed(ws);
      const idOf = new Map(CALLS.map((c, i) => [c.id, `t${i}_0`]));
      const handleIn = (r: Received | undefined) => (r ? HANDLE.exec(r.text)?.[0] : undefined);
      const turns: ScriptedTurn[] = CALLS.map((c) => () => [c.block]);
      // One turn retrieves, in parallel, every handle the model was given; `retrieveIds` maps each
      // call to its retrieve's tool_use id (a retried request rebuilds the same map).
      const retrieveIds = new Map<string, string>();
      const retrieveTurn = CALLS.length;
      turns.push((results) => {
        const blocks: ScriptedBlock[] = [];
        for (const c of CALLS) {
          const h = handleIn(results.get(idOf.get(c.id) ?? ""));
          if (!h) continue;
          retrieveIds.set(c.id, `t${retrieveTurn}_${blocks.length}`);
          blocks.push({
            type: "tool_use",
            name: "mcp__caveman__caveman_retrieve",
            input: { recovery_handle: h },
          });
        }
        return blocks.length ? blocks : [{ type: "text", text: "no handles" }];
      });
      turns.push(() => [{ type: "text", text: "done" }]);
      const fake = await startFakeModel(turns);
      const debugFile = join(ws.base, "debug.txt");
      const settings = join(ws.base, "settings.json");
      const hookConfig = join(ws.base, "hooks.json");
      // A loaded CI machine must not turn a slow hook start into a silent pass-through.
      writeFileSync(hookConfig, JSON.stringify({ budget_ms: 30000 }));
      writeFileSync(
        settings,
        JSON.stringify({
          hooks: {
            PostToolUse: [
              {
                matcher: "Bash|Read|Grep|mcp__.*",
                hooks: [
                  {
                    type: "command",
                    command: `"${process.execPath}" "${SERVER_CLI}" hook claude-code`,
                    timeout: 30,
                  },
                ],
              },
            ],
          },
        }),
      );
      let run: Awaited<ReturnType<typeof runClaude>>;
      try {
        run = await runClaude({
          claude: claude.path,
          apiUrl: fake.url,
          ws,
          prompt: "Run the hook checks.",
          args: ["--settings", settings, "--debug-file", debugFile, "--tools", "Bash,Read,Grep,Glob"],
          // One store for the hook, the proxy (both inherit this) and the caveman server (`--db`).
          env: { CAVEMAN_CCR_DB: ws.db, CAVEMAN_HOOK_CONFIG: hookConfig },
          servers: {
            fixture: {
              command: process.execPath,
              args: [SERVER_CLI, "proxy", "--", process.execPath, FIXTURE_SERVER],
            },
          },
        });
      } finally {
        await fake.close();
      }
      const debug = existsSync(debugFile) ? readFileSync(debugFile, "utf8") : "";
      const results = fake.results();
      const got = (id: string) => results.get(idOf.get(id) ?? "");
      if (process.env.HOST_TEST_DUMP) {
        for (const [id, r] of results) console.log(id, r.isError, JSON.stringify(r.text.slice(0, 600)));
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
      expect(debug, "the host rejected a hook output").not.toMatch(/does not match/);
      const table = checkAll(files, debug, got, results, retrieveIds);
      console.log(`[host] hooks: Claude Code run ${run.ms} ms\n${table}`);
    } finally {
      if (!process.env.HOST_TEST_KEEP) rmSync(ws.base, { recursive: true, force: true });
    }
  });
});
