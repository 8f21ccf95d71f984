// The session bench's pure helpers (tests/host/bench/score.ts): what counts as a fact seen, what
// the host did to an output, the follow-up an agent writes, the token count and the table.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import {
  type CallScore,
  grepFollowUp,
  handleIn,
  hookRuns,
  hostCut,
  losses,
  median,
  persistedPath,
  scoreFacts,
  table,
  tokens,
  totals,
} from "../bench/score.js";

const call = (over: Partial<CallScore>): CallScore => ({
  id: "cat log",
  tool: "Bash",
  tokens: 100,
  facts: 2,
  firstLook: 1,
  found: 2,
  followUps: 1,
  followUpTokens: 20,
  retrieveTokens: [],
  host: "none",
  handle: false,
  isError: false,
  verdict: "",
  ...over,
});

describe("the session bench's scoring", () => {
  it("counts a fact as seen only when its exact string is in what the model got", () => {
    const got = "ERROR: division by zero\nERROR:  relation missing";
    expect(scoreFacts(got, ["ERROR: division by zero", "ERROR: relation missing"])).toEqual({
      seen: ["ERROR: division by zero"],
      missing: ["ERROR: relation missing"],
    });
  });

  it("counts o200k tokens, none for an empty result", () => {
    expect(tokens("")).toBe(0);
    expect(tokens("hello world")).toBe(2);
  });

  it("reads the host's cut and saved path and our handle off the text the model got", () => {
    const stub =
      "<persisted-output>\nOutput too large (187.6KB). Full output saved to: /tmp/h/tool-results/b1.txt\n\nPreview (first 2KB):\nx";
    expect(hostCut(stub)).toBe("persisted");
    expect(persistedPath(stub)).toBe("/tmp/h/tool-results/b1.txt");
    const mcp =
      "Error: result (174,662 characters) exceeds maximum allowed tokens. Output has been saved to /tmp/h/m-1.txt.\n";
    expect(hostCut(mcp)).toBe("mcp_over_limit");
    expect(persistedPath(mcp)).toBe("/tmp/h/m-1.txt");
    expect(hostCut("a\n... [20012 characters truncated] ...\nb")).toBe("middle_cut");
    expect(hostCut("short")).toBe("none");
    expect(
      handleIn('[caveman: log compressed; recovery_handle "ccr_0123456789abcdef0123456789abcdef"]'),
    ).toBe("ccr_0123456789abcdef0123456789abcdef");
  });

  it("writes a grep follow-up that finds a fact with quotes and shell characters, byte for byte", () => {
    const dir = tempDir("bench-score-");
    const fact = `it's $HOME \`x\` "q" !a`;
    const file = join(dir, "out.txt");
    writeFileSync(file, `noise\n${fact}\nmore\n`);
    const run = (cmd: string) => execFileSync("bash", ["-c", cmd], { encoding: "utf8" });
    expect(run(grepFollowUp(fact, { file }))).toBe(`${fact}\n`);
    expect(run(grepFollowUp(fact, { saved: file, file: "/nope" }))).toBe(`${fact}\n`);
    expect(run(grepFollowUp(fact, { command: `cat ${file}` }))).toBe(`${fact}\n`);
    const json = join(dir, "mcp.txt");
    writeFileSync(json, JSON.stringify({ content: `a\n${fact}\nb` }));
    expect(run(grepFollowUp(fact, { saved: json, json: true }))).toBe(`${fact}\n`);
  });

  it("sums a mode and takes medians", () => {
    expect(median([])).toBeUndefined();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([1, 2, 3, 10])).toBe(2.5);
    const t = totals([call({}), call({ tokens: 50, retrieveTokens: [30], hookMs: 900 })]);
    expect(t).toMatchObject({
      tokens: 150,
      followUpTokens: 40,
      total: 190,
      facts: 4,
      firstLook: 2,
      found: 4,
    });
    expect(t).toMatchObject({ retrieves: 1, retrieveMedian: 30, hookP50: 900, hooked: 1 });
  });

  it("prints one row per call and the issue's targets with a verdict each", () => {
    const a = [call({ tokens: 1000, firstLook: 0, followUpTokens: 100 })];
    const b = [
      call({
        tokens: 400,
        firstLook: 2,
        followUpTokens: 0,
        followUps: 0,
        handle: true,
        verdict: "compressed",
      }),
    ];
    const out = table(
      a,
      b,
      [{ id: "cat log", exit: 1, bytes: 10, compressed: true, handle: true, byteExact: true }],
      {
        schemaTokens: { a: 10, b: 15 },
        fullRetrieves: 1,
        fullRetrieveErrors: 0,
      },
    );
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^call\s+tool\s+a tok\s+b tok/);
    expect(lines[1]).toMatch(/^cat log\s+Bash\s+1000\s+400\s+40%/);
    expect(out).toMatch(/TOTAL\s+a 1100\s+b 400 \(36%\)\s+target b <= 60%: PASS/);
    expect(out).toMatch(/facts first look\s+a 0\/2\s+b 2\/2 \(xInfinity\)\s+target >= 1.5x: PASS/);
    expect(out).toMatch(/failing commands\s+1\/1 compressed with a byte-exact handle\s+target all: PASS/);
    expect(out).toContain("tool schemas/request   a 10  b 15 (+5)");
    expect(lines[1]).toMatch(/\s-700\s/);
  });

  it("ranks the calls where b cost more than a, follow-ups included, worst first", () => {
    const a = [
      call({ id: "x", tokens: 700 }),
      call({ id: "y", tokens: 100 }),
      call({ id: "z", tokens: 100 }),
    ];
    const b = [
      call({ id: "x", tokens: 100 }),
      call({ id: "y", tokens: 300 }),
      call({ id: "z", tokens: 900 }),
    ];
    expect(losses(a, b)).toEqual([
      { id: "z", delta: 800 },
      { id: "y", delta: 200 },
    ]);
  });
});

describe("the session bench's reading of the CLI's debug log", () => {
  it("takes each run of our hook with its event, time and verdict, and nobody else's", () => {
    const cli = '[node "/h/.caveman/app/0.1.0/plugins/caveman-mcp/server/cli.mjs" hook claude-code]';
    const log = [
      `2026-12-02T04:59:53.344Z [DEBUG] Hooks: PostToolUse:Bash ${cli} (plugin caveman-mcp@caveman-mcp) finished with status 0 (3462ms)`,
      "2026-12-02T04:59:53.345Z [DEBUG] Hook output does not start with {, treating as plain text",
      '2026-12-02T04:59:53.345Z [DEBUG] "Hook PostToolUse:Bash (PostToolUse) success:\\nstderr:\\ncaveman-mcp hook claude-code: passed (stdin_unfinished)"',
      "2026-12-02T04:59:54.000Z [DEBUG] Hooks: PostToolUse:Bash [other-hook] finished with status 0 (12ms)",
      `2026-12-02T05:00:08.561Z [DEBUG] Hooks: PostToolUse:Read ${cli} (plugin caveman-mcp@caveman-mcp) finished with status 0 (3051ms)`,
      '2026-12-02T05:00:08.600Z [DEBUG] "Hook PostToolUse:Read (PostToolUse) success:\\nstdout:\\n{\\"hookSpecificOutput\\":{}}\\nstderr:\\ncaveman-mcp hook claude-code: compressed"',
    ].join("\n");
    expect(hookRuns(log)).toEqual([
      {
        at: Date.parse("2026-12-02T04:59:53.344Z"),
        event: "PostToolUse",
        tool: "Bash",
        ms: 3462,
        verdict: "passed (stdin_unfinished)",
      },
      {
        at: Date.parse("2026-12-02T05:00:08.561Z"),
        event: "PostToolUse",
        tool: "Read",
        ms: 3051,
        verdict: "compressed",
      },
    ]);
  });
});
