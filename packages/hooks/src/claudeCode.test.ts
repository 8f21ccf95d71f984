import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemoryStore, originalText } from "@caveman/ccr-store";
import { describe, expect, it } from "vitest";
import { claudeCodePostToolUse } from "./claudeCode.js";
import {
  bigDiff,
  bigGrep,
  bigJson,
  bigLog,
  failingPytest,
  memoryContext,
  sourceCode,
} from "./samples.test-helpers.js";
import { claudeCodeShapeProblem } from "./shapes.js";
import type { HookContext } from "./shrink.js";

const ctx = memoryContext;

function updated(d: ReturnType<typeof claudeCodePostToolUse>, tool = "Bash"): Record<string, unknown> {
  if ("pass" in d) throw new Error(`passed: ${d.pass}`);
  const h = d.output.hookSpecificOutput as Record<string, unknown>;
  expect(h.hookEventName).toBe("PostToolUse");
  expect(claudeCodeShapeProblem(tool, h.updatedToolOutput)).toBeNull();
  return h.updatedToolOutput as Record<string, unknown>;
}

function handleIn(text: string): string {
  const m = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(text);
  if (!m) throw new Error("no recovery line");
  return m[1]!;
}

const bashEvent = (command: string, stdout: string, extra: Record<string, unknown> = {}) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_response: { stdout, stderr: "", interrupted: false, isImage: false, ...extra },
  tool_use_id: "toolu_1",
  session_id: "s1",
  cwd: "/tmp",
});

describe("Claude Code PostToolUse: Bash", () => {
  it("replaces a large log with exactly {stdout, stderr, interrupted}, original stored byte-exact", () => {
    const c = ctx();
    const log = bigLog();
    const out = updated(claudeCodePostToolUse(bashEvent("cat /var/log/app.log", log), c));
    expect(Object.keys(out).sort()).toEqual(["interrupted", "stderr", "stdout"]);
    expect(out.interrupted).toBe(false);
    expect(out.stderr).toBe("");
    const stdout = out.stdout as string;
    expect(stdout.length).toBeLessThan(log.length / 3);
    expect(stdout).toContain("card_declined");
    const rec = c.ccr.get(handleIn(stdout));
    expect(rec && originalText(rec)).toBe(log);
  });

  it("keeps a failing test's assertion and location visible", () => {
    const out = updated(claudeCodePostToolUse(bashEvent("cd app && pytest -q", failingPytest()), ctx()));
    const stdout = out.stdout as string;
    expect(stdout).toContain("E       assert 100 == 70");
    expect(stdout).toContain("tests/test_mod7.py:42: AssertionError");
    expect(stdout).toContain("1 failed, 239 passed");
  });

  it("keeps every file of a git diff in view, and says a folded change differs from the shown one in its numbers", () => {
    const diff = bigDiff();
    const stdout = updated(claudeCodePostToolUse(bashEvent("git diff", diff), ctx())).stdout as string;
    expect(stdout).toContain("+export const limit0 = 20;");
    for (let f = 0; f < 6; f++) expect(stdout).toContain(`diff --git a/src/mod${f}.ts b/src/mod${f}.ts`);
    // The other five files make the same edit with other digits: folded, and the marker says how
    // they differ rather than calling them the same change.
    expect(stdout).toMatch(/same change as line \d+ but for numbers/);
  });

  it("reads a persisted output from its confined path and drops persistedOutputPath", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "hooks-persist-")));
    const full = bigLog(4000);
    const path = join(dir, "toolu_1.txt");
    writeFileSync(path, full);
    const c = ctx({}, openMemoryStore(), [dir]);
    const ev = bashEvent("cat big.log", full.slice(0, 30_000), {
      persistedOutputPath: path,
      persistedOutputSize: full.length,
    });
    const out = updated(claudeCodePostToolUse(ev, c));
    expect(Object.keys(out).sort()).toEqual(["interrupted", "stderr", "stdout"]);
    const rec = c.ccr.get(handleIn(out.stdout as string));
    expect(rec && originalText(rec)).toBe(full);
  });

  it("refuses a persisted path outside the allowed roots, through a symlink, or not matching the cut", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "hooks-persist-")));
    const other = realpathSync(mkdtempSync(join(tmpdir(), "hooks-elsewhere-")));
    const full = bigLog(4000);
    writeFileSync(join(other, "secret.txt"), full);
    symlinkSync(join(other, "secret.txt"), join(dir, "link.txt"));
    writeFileSync(join(dir, "different.txt"), bigLog(3000).replace("INFO", "WARN"));
    const c = ctx({}, openMemoryStore(), [dir]);
    const cut = full.slice(0, 30_000);
    for (const p of [
      join(other, "secret.txt"),
      join(dir, "link.txt"),
      join(dir, "different.txt"),
      "relative.txt",
      join(dir, "missing.txt"),
    ]) {
      expect(claudeCodePostToolUse(bashEvent("cat big.log", cut, { persistedOutputPath: p }), c)).toEqual({
        pass: "persisted_unreadable",
      });
    }
    mkdirSync(join(dir, "sub"));
    expect(claudeCodePostToolUse(bashEvent("x", cut, { persistedOutputPath: join(dir, "sub") }), c)).toEqual({
      pass: "persisted_unreadable",
    });
  });

  it("passes small output, raw requests, images and odd shapes", () => {
    const c = ctx();
    expect(claudeCodePostToolUse(bashEvent("ls", "a\nb\n"), c)).toEqual({ pass: "below_floor" });
    expect(claudeCodePostToolUse(bashEvent("cat app.log # caveman:raw", bigLog()), c)).toEqual({
      pass: "raw_requested",
    });
    expect(claudeCodePostToolUse(bashEvent("CAVEMAN_RAW=1 cat app.log", bigLog()), c)).toEqual({
      pass: "raw_requested",
    });
    expect(claudeCodePostToolUse(bashEvent("cat a.png", bigLog(), { isImage: true }), c)).toEqual({
      pass: "unexpected_shape",
    });
    expect(
      claudeCodePostToolUse({ tool_name: "Bash", tool_input: {}, tool_response: { stdout: 3 } }, c),
    ).toEqual({ pass: "unexpected_shape" });
    expect(c.ccr.stats().entries).toBe(0);
  });

  it("does not turn source code into an outline (the model needs the lines)", () => {
    expect(claudeCodePostToolUse(bashEvent("cat src/a.ts", sourceCode()), ctx())).toEqual({
      pass: "kind_code",
    });
  });
});

describe("Claude Code PostToolUse: Read, Grep, MCP", () => {
  it("Read of a large JSON file keeps the Read shape with fresh line counts", () => {
    const c = ctx();
    const json = bigJson();
    const ev = {
      tool_name: "Read",
      tool_input: { file_path: "/w/data.json" },
      tool_response: {
        type: "text",
        file: {
          filePath: "/w/data.json",
          content: json,
          numLines: 2000,
          startLine: 1,
          totalLines: 2000,
          extra: 1,
        },
      },
    };
    const out = updated(claudeCodePostToolUse(ev, c), "Read");
    expect(out.type).toBe("text");
    const file = out.file as Record<string, unknown>;
    expect(Object.keys(file).sort()).toEqual(["content", "filePath", "numLines", "startLine", "totalLines"]);
    expect(file.numLines).toBe((file.content as string).trimEnd().split("\n").length);
    expect(file.totalLines).toBe(2000);
    expect(file.content as string).toContain('"status":"error"');
  });

  it("Read of source code passes", () => {
    const ev = {
      tool_name: "Read",
      tool_input: {},
      tool_response: {
        type: "text",
        file: { filePath: "/w/a.ts", content: sourceCode(), numLines: 600, startLine: 1, totalLines: 600 },
      },
    };
    expect("pass" in claudeCodePostToolUse(ev, ctx())).toBe(true);
  });

  it("Grep in content mode keeps {numFiles, filenames, mode, content, numLines}", () => {
    const ev = {
      tool_name: "Grep",
      tool_input: { pattern: "useHandler", output_mode: "content" },
      tool_response: {
        mode: "content",
        numFiles: 30,
        filenames: [],
        content: bigGrep(),
        numLines: 600,
        appliedLimit: 0,
      },
    };
    const out = updated(claudeCodePostToolUse(ev, ctx()), "Grep");
    expect(Object.keys(out).sort()).toEqual(["content", "filenames", "mode", "numFiles", "numLines"]);
    expect(out.numLines).toBe((out.content as string).trimEnd().split("\n").length);
    expect(
      claudeCodePostToolUse(
        { ...ev, tool_response: { mode: "files_with_matches", numFiles: 3, filenames: ["a"] } },
        ctx(),
      ),
    ).toEqual({
      pass: "not_content_mode",
    });
  });

  it("MCP results come back as text blocks (or a string when given one); non-text blocks pass", () => {
    const log = bigLog();
    const blocks = updated(
      claudeCodePostToolUse(
        { tool_name: "mcp__logs__tail", tool_input: {}, tool_response: [{ type: "text", text: log }] },
        ctx(),
      ),
      "mcp__logs__tail",
    ) as unknown;
    expect(Array.isArray(blocks)).toBe(true);
    expect((blocks as Array<{ type: string }>)[0]!.type).toBe("text");
    const s = updated(
      claudeCodePostToolUse({ tool_name: "mcp__logs__tail", tool_response: log }, ctx()),
      "mcp__logs__tail",
    ) as unknown;
    expect(typeof s).toBe("string");
    expect(
      claudeCodePostToolUse({ tool_name: "mcp__x__y", tool_response: [{ type: "image", data: "" }] }, ctx()),
    ).toEqual({ pass: "non_text_result" });
  });

  it("never touches caveman_retrieve or the edit tools, and honours deny/allow/off", () => {
    const log = [{ type: "text", text: bigLog() }];
    for (const name of [
      "mcp__caveman__caveman_retrieve",
      "mcp__cm__caveman_retrieve",
      "mcp__caveman__be-read",
    ])
      expect(claudeCodePostToolUse({ tool_name: name, tool_response: log }, ctx())).toEqual({
        pass: "own_tool",
      });
    expect(
      claudeCodePostToolUse(
        { tool_name: "mcp__logs__tail", tool_response: log },
        ctx({ deny: ["mcp__logs__*"] }),
      ),
    ).toEqual({ pass: "denied" });
    expect(
      claudeCodePostToolUse({ tool_name: "mcp__logs__tail", tool_response: log }, ctx({ allow: ["Bash"] })),
    ).toEqual({ pass: "not_allowed" });
    expect(
      claudeCodePostToolUse({ tool_name: "mcp__logs__tail", tool_response: log }, ctx({ enabled: false })),
    ).toEqual({ pass: "disabled" });
  });

  it("unknown tools, other events and malformed input pass", () => {
    expect(claudeCodePostToolUse({ tool_name: "WebFetch", tool_response: { x: 1 } }, ctx())).toEqual({
      pass: "unknown_tool",
    });
    expect(claudeCodePostToolUse({ tool_name: "Bash", hook_event_name: "PreToolUse" }, ctx())).toEqual({
      pass: "wrong_event",
    });
    for (const bad of [null, 3, "x", [], {}]) expect("pass" in claudeCodePostToolUse(bad, ctx())).toBe(true);
  });
});

describe("faults", () => {
  it("a full store passes the original and stores nothing", () => {
    const log = bigLog();
    const c = ctx({}, openMemoryStore({ budgetBytes: log.length + 1000 }));
    c.ccr.put("x".repeat(2000));
    expect(claudeCodePostToolUse(bashEvent("cat app.log", log), c)).toEqual({ pass: "store_full" });
    expect(c.ccr.stats().entries).toBe(1);
  });

  it("a store that throws on open passes the original", () => {
    const c: HookContext = {
      ...ctx(),
      store: () => {
        throw new Error("locked");
      },
    };
    expect(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)).toEqual({ pass: "store_failed" });
  });

  it("a passed deadline passes the original", () => {
    const c = { ...ctx(), deadline: Date.now() - 1 };
    expect(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)).toEqual({ pass: "deadline" });
  });

  it("an output over max_input_bytes passes", () => {
    expect(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), ctx({ maxInputBytes: 2048 }))).toEqual({
      pass: "too_large",
    });
  });

  it("a stand-in compressed again passes through (the host may run the hook twice)", () => {
    const c = ctx();
    const once = updated(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)).stdout as string;
    expect(claudeCodePostToolUse(bashEvent("cat app.log", once), c)).toMatchObject({
      pass: expect.any(String),
    });
  });
});

describe("accepted shapes (the checker itself)", () => {
  it("refuses what Claude Code drops", () => {
    expect(
      claudeCodeShapeProblem("Bash", {
        stdout: "",
        stderr: "",
        interrupted: false,
        persistedOutputPath: "/x",
      }),
    ).toMatch(/unexpected "persistedOutputPath"/);
    expect(claudeCodeShapeProblem("Bash", { stdout: "", stderr: "" })).toMatch(/missing "interrupted"/);
    expect(
      claudeCodeShapeProblem("Read", {
        type: "text",
        file: { filePath: "a", content: "", numLines: 1, startLine: 1 },
      }),
    ).toMatch(/totalLines/);
    expect(
      claudeCodeShapeProblem("Grep", { numFiles: 1, filenames: [], mode: "files_with_matches" }),
    ).toMatch(/mode/);
    expect(claudeCodeShapeProblem("mcp__a__b", { content: [] })).toMatch(/MCP/);
    expect(claudeCodeShapeProblem("WebFetch", {})).toMatch(/no known/);
  });
});
