// Host tier: the real Claude Code CLI runs the real caveman-mcp binary, and a scripted model on
// loopback records exactly what reached it. For every tool, on success and on a typical failure,
// the content must be in the tool result the model got (Claude Code forwards only the JSON of
// `structuredContent` when a result has one, so a payload left out of it would fail here). Prints,
// per call, how many characters the model received.
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClaudeRun, findClaude, runClaude, skipReason, workspace } from "./claude.js";
import { type FakeModel, type ScriptedTurn, startFakeModel } from "./fakeModel.js";
import {
  type Case,
  compressionCases,
  type Expect,
  editCases,
  oversizeCases,
  seedEditFiles,
  serviceLog,
} from "./scenarios.js";

const SERVER = "caveman";
const mcpName = (tool: string) => `mcp__${SERVER}__${tool}`;

const expectSoft: Expect = {
  contains: (r, piece, what) =>
    expect
      .soft(
        r.text.includes(piece),
        `${r.toolUseId}: ${what} missing from ${JSON.stringify(r.text.slice(0, 400))}`,
      )
      .toBe(true),
  matches: (r, re, what) =>
    expect
      .soft(re.test(r.text), `${r.toolUseId}: ${what} (${re}) not in ${JSON.stringify(r.text.slice(0, 400))}`)
      .toBe(true),
  same: (r, actual, expected, what) =>
    expect
      .soft(actual === expected, `${r.toolUseId}: ${what} (${actual.length} vs ${expected.length} chars)`)
      .toBe(true),
  isError: (r, yes) => expect.soft(r.isError, `${r.toolUseId}: is_error`).toBe(yes),
};

/** Turn 0 loads the deferred MCP tools; turn n+1 makes case n's call; the last turn ends. */
function script(cases: Case[]): { turns: ScriptedTurn[]; idOf: Map<string, string> } {
  const idOf = new Map<string, string>();
  const tools = [...new Set(cases.map((c) => mcpName(c.tool)))];
  const turns: ScriptedTurn[] = [
    () => [{ type: "tool_use", name: "ToolSearch", input: { query: `select:${tools.join(",")}` } }],
  ];
  for (const [i, c] of cases.entries()) {
    idOf.set(c.id, `t${i + 1}_0`);
    turns.push((results) => {
      const got = (id: string) => results.get(idOf.get(id) ?? "");
      return [{ type: "tool_use", name: mcpName(c.tool), input: c.input(got) }];
    });
  }
  turns.push(() => [{ type: "text", text: "All scripted checks ran." }]);
  return { turns, idOf };
}

/** One Claude Code run that makes every call of `make(root)` in order, then checks each result. */
async function runCases(label: string, make: (root: string) => Case[]) {
  const claude = findClaude();
  if (!("path" in claude)) throw new Error(claude.missing);
  const ws = workspace();
  try {
    const cases = make(ws.root);
    const { turns, idOf } = script(cases);
    const fake = await startFakeModel(turns);
    let run: ClaudeRun;
    try {
      run = await runClaude({
        claude: claude.path,
        apiUrl: fake.url,
        ws,
        prompt: `Run the ${label} checks.`,
      });
    } finally {
      await fake.close();
    }
    check({ label, cases, idOf, fake, run });
  } finally {
    rmSync(ws.base, { recursive: true, force: true });
  }
}

interface Finished {
  label: string;
  cases: Case[];
  idOf: Map<string, string>;
  fake: FakeModel;
  run: ClaudeRun;
}

/** Checks every case against the tool result the model received, and prints the size table. */
function check({ label, cases, idOf, fake, run }: Finished): void {
  const results = fake.results();
  const got = (id: string) => results.get(idOf.get(id) ?? "");
  const detail = `exit ${run.code}; stderr: ${run.stderr.slice(-2000)}`;
  expect(run.code, detail).toBe(0);
  expect(fake.scriptErrors).toEqual([]);
  // The CLI's own verdict on the conversation: it finished, and it refused no tool call.
  const result = run.events.findLast((e) => e.type === "result");
  expect(result, `no result event; stdout: ${run.stdout.slice(-1000)}`).toMatchObject({ is_error: false });
  expect(result?.permission_denials ?? [], "tool calls the CLI refused").toEqual([]);
  const toolSearch = results.get("t0_0");
  expect(toolSearch?.isError, `ToolSearch failed: ${toolSearch?.text}`).toBe(false);
  const rows: string[] = [];
  for (const c of cases) {
    const r = got(c.id);
    expect.soft(r, `${c.id}: no tool result reached the model (${detail})`).toBeDefined();
    if (!r) continue;
    c.check(r, got);
    if (process.env.HOST_TEST_DUMP) console.log(c.id, JSON.stringify(r.blocks).slice(0, 300));
    rows.push(`${c.measure ? "*" : " "} ${c.id.padEnd(32)} ${String(r.text.length).padStart(7)} chars`);
  }
  const side = fake.requests.filter((q) => !q.main).map((q) => q.path);
  console.log(
    `[host] ${label}: Claude Code run ${run.ms} ms; side requests: ${side.join(", ") || "none"}\n${rows.join("\n")}`,
  );
}

const unavailable = skipReason();
if (unavailable) console.warn(`[host] Claude Code host tests cannot run here: ${unavailable}`);

describe("host scenarios", () => {
  it("call each of the thirteen tools at least twice: a success and a typical failure", () => {
    const cases = [...compressionCases(expectSoft, ""), ...editCases(expectSoft, "/root")];
    const counts = new Map<string, number>();
    for (const c of cases) counts.set(c.tool, (counts.get(c.tool) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(
      [
        "caveman_compress",
        "caveman_retrieve",
        "caveman_stats",
        "caveman_toon_encode",
        "caveman_toon_decode",
        "be-read",
        "be-write",
        "be-insert",
        "be-replace",
        "be-delete",
        "be-insert-chip",
        "be-undo",
        "be-batch",
      ].sort(),
    );
    for (const [tool, n] of counts) expect(n, tool).toBeGreaterThanOrEqual(2);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });
});

describe.skipIf(unavailable !== undefined)("what the model receives in Claude Code", () => {
  it("gets the content of every compression-family result, and each failure's code with its chip id", async () => {
    const log = serviceLog();
    await runCases("compression", () => compressionCases(expectSoft, log));
  });

  it("gets a full retrieve too large for one result as inline pages that concatenate to the original", async () => {
    const big = `${Array.from({ length: 4000 }, (_, i) => `2026-11-30T12:00:00Z INFO request id=${i} path=/api/x/${i % 97} status=200 took=${i % 13}ms`).join("\n")}\n`;
    await runCases("oversize", () => oversizeCases(expectSoft, big));
  });

  it("gets the lines, diffs and chip ids of every edit-family result, and each failure's code with its chip id", async () => {
    await runCases("edit", (root) => {
      seedEditFiles(root);
      return editCases(expectSoft, root);
    });
  });
});
