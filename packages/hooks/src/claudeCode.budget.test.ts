// The token budget of every replacement: what the host would have shown sets it (a preview's cost
// where Claude Code would persist the output, the setting elsewhere), and a data file Read cut
// short is read whole from disk and compressed within the preview's budget.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openMemoryStore, originalText } from "@caveman/ccr-store";
import { countTokens } from "@caveman/engine";
import { parseKeptHeader } from "@caveman/keep";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import {
  BASH_PERSIST_CHARS,
  bashBudget,
  GREP_PERSIST_CHARS,
  grepBudget,
  grepShownChars,
  HOST_PREVIEW_TOKENS,
  mcpBudget,
  splitBudget,
} from "./budget.js";
import { claudeCodePostToolUse } from "./claudeCode.js";
import { bashEvent, handleIn, updated } from "./claudeCode.test-helpers.js";
import {
  bigGrep,
  bigJson,
  bigLog,
  failingPytest,
  memoryContext,
  sourceCode,
} from "./samples.test-helpers.js";

const tmp = () => tempDir("hooks-budget-");

function readEvent(path: string, content: string, totalLines: number, input: Record<string, unknown> = {}) {
  const numLines = content.split("\n").length;
  return {
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: path, ...input },
    tool_response: { type: "text", file: { filePath: path, content, numLines, startLine: 1, totalLines } },
    cwd: "/nonexistent-cwd",
  };
}

function readContent(d: Awaited<ReturnType<typeof claudeCodePostToolUse>>): string {
  if ("pass" in d) throw new Error(`passed: ${d.pass}`);
  return (d.output.hookSpecificOutput as { updatedToolOutput: { file: { content: string } } })
    .updatedToolOutput.file.content;
}

describe("budgets from what the host would show", () => {
  it("a persisted Bash output is replaced by no more tokens than the host's preview, header first", async () => {
    const dir = tmp();
    const full = bigLog(6000);
    const path = join(dir, "toolu_1.txt");
    writeFileSync(path, full);
    const c = memoryContext({}, openMemoryStore(), [dir]);
    const ev = bashEvent("cat big.log", full.slice(0, 2000), { persistedOutputPath: path });
    const stdout = (await updated(claudeCodePostToolUse(ev, c))).stdout as string;
    expect(countTokens(stdout)).toBeLessThanOrEqual(HOST_PREVIEW_TOKENS);
    expect(parseKeptHeader(stdout.split("\n")[0]!)).not.toBeNull();
    expect(stdout).toContain("card_declined");
    const rec = c.ccr.get(handleIn(stdout));
    expect(rec && originalText(rec)).toBe(full);
  });

  it("an inline output stays within budget_tokens, however small the setting", async () => {
    const small = memoryContext({ budgetTokens: 300 });
    const stdout = (await updated(claudeCodePostToolUse(bashEvent("pytest -q", failingPytest()), small)))
      .stdout as string;
    expect(countTokens(stdout)).toBeLessThanOrEqual(300);
    expect(stdout).toContain("1 failed, 239 passed");
    const tiny = memoryContext({ budgetTokens: 100 });
    const log = (await updated(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), tiny)))
      .stdout as string;
    expect(countTokens(log)).toBeLessThanOrEqual(100);
    expect(parseKeptHeader(log.split("\n")[0]!)).not.toBeNull();
  });

  it("marks the inline original as the host's (edge-trimmed) text, and a persisted one as the command's", async () => {
    const c = memoryContext();
    const stdout = (await updated(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)))
      .stdout as string;
    expect(c.ccr.get(handleIn(stdout))?.producer).toBe("Bash [host-trimmed]: cat app.log");
  });

  it("an MCP result the host would save to a file costs no more than the preview", async () => {
    const c = memoryContext();
    const text = bigLog(8000);
    const ev = {
      tool_name: "mcp__logs__tail",
      tool_input: {},
      tool_response: [{ type: "text", text }],
    };
    const d = await claudeCodePostToolUse(ev, c);
    if ("pass" in d) throw new Error(d.pass);
    const out = (d.output.hookSpecificOutput as { updatedToolOutput: Array<{ text: string }> })
      .updatedToolOutput[0]!.text;
    expect(countTokens(out)).toBeLessThanOrEqual(HOST_PREVIEW_TOKENS);
  });

  it("a Grep result the host would save to a file costs no more than the preview", async () => {
    const c = memoryContext();
    const content = bigGrep(1200);
    expect(content.length).toBeGreaterThan(GREP_PERSIST_CHARS);
    const ev = {
      tool_name: "Grep",
      tool_input: { pattern: "useHandler", output_mode: "content" },
      tool_response: { mode: "content", numFiles: 30, filenames: [], content, numLines: 1200 },
    };
    const d = await claudeCodePostToolUse(ev, c);
    if ("pass" in d) throw new Error(d.pass);
    const out = (d.output.hookSpecificOutput as { updatedToolOutput: { content: string } }).updatedToolOutput
      .content;
    expect(countTokens(out)).toBeLessThanOrEqual(HOST_PREVIEW_TOKENS);
    const rec = c.ccr.get(handleIn(out));
    expect(rec && originalText(rec)).toBe(content);
  });

  it("a Grep result under the limit that the host's pagination note takes over it costs no more than the preview", async () => {
    const c = memoryContext();
    // Lines unlike each other, so that a 1,500-token budget would be spent.
    let content = "";
    for (let i = 0, x = 7; ; i++) {
      x = (x * 48271) % 2147483647;
      const line = `src/m${x % 97}/f${x % 89}.ts:${i + 1}:  const k${x.toString(36)} = load("${(x * 31).toString(36)}");\n`;
      if (content.length + line.length > GREP_PERSIST_CHARS - 10) break;
      content += line;
    }
    const ev = {
      tool_name: "Grep",
      tool_input: { pattern: "useHandler", output_mode: "content", head_limit: 250 },
      tool_response: {
        mode: "content",
        numFiles: 0,
        filenames: [],
        content,
        numLines: 250,
        appliedLimit: 250,
      },
    };
    const d = await claudeCodePostToolUse(ev, c);
    if ("pass" in d) throw new Error(d.pass);
    const out = (d.output.hookSpecificOutput as { updatedToolOutput: { content: string } }).updatedToolOutput
      .content;
    expect(countTokens(out)).toBeLessThanOrEqual(HOST_PREVIEW_TOKENS);
  });

  it("picks the preview's budget exactly where the host would persist, and splits one budget by length", () => {
    expect(grepBudget(GREP_PERSIST_CHARS, 1500)).toBe(1500);
    expect(grepBudget(GREP_PERSIST_CHARS + 1, 1500)).toBe(HOST_PREVIEW_TOKENS);
    expect(grepShownChars("abc", undefined, undefined)).toBe(3);
    expect(grepShownChars("", undefined, undefined)).toBe("No matches found".length);
    expect(grepShownChars("abc", 250, undefined)).toBe(
      "abc\n\n[Showing results with pagination = limit: 250, offset: 0]".length,
    );
    expect(grepShownChars("abc", undefined, 5)).toBe(
      "abc\n\n[Showing results with pagination = limit: undefined, offset: 5]".length,
    );
    expect(bashBudget(BASH_PERSIST_CHARS, false, 1500)).toBe(1500);
    expect(bashBudget(BASH_PERSIST_CHARS + 1, false, 1500)).toBe(HOST_PREVIEW_TOKENS);
    expect(bashBudget(10, true, 1500)).toBe(HOST_PREVIEW_TOKENS);
    expect(bashBudget(BASH_PERSIST_CHARS + 1, false, 400)).toBe(400);
    expect(mcpBudget(25_000 * 6 + 6, 25_000, 1500)).toBe(HOST_PREVIEW_TOKENS);
    expect(mcpBudget(25_000 * 4, 25_000, 1500)).toBe(1500);
    expect(splitBudget(700, [9000, 0])).toEqual([700, 700]);
    const [a, b] = splitBudget(1000, [9000, 1000]);
    expect(a! + b!).toBeLessThanOrEqual(1000);
    expect(b).toBeGreaterThanOrEqual(100);
  });
});

describe("Read of a data file the host cut at 2,000 lines", () => {
  function longJson(): string {
    const text = bigJson(600);
    return text.replace(
      '"name": "item-555",\n      "status": "ok"',
      '"name": "item-555",\n      "status": "error"',
    );
  }

  it("reads the whole file under the session's roots, within the preview's budget, and says which lines Read had shown", async () => {
    const dir = tmp();
    const path = join(dir, "report.json");
    const json = longJson();
    writeFileSync(path, json);
    const lines = json.split("\n");
    expect(lines.length).toBeGreaterThan(3000);
    const c = { ...memoryContext(), readRoots: [dir] };
    const out = await updated(
      claudeCodePostToolUse(readEvent(path, lines.slice(0, 2000).join("\n"), lines.length), c),
      "Read",
    );
    const file = out.file as { content: string; totalLines: number; numLines: number };
    expect(file.totalLines).toBe(lines.length);
    expect(parseKeptHeader(file.content.split("\n")[0]!)).not.toBeNull();
    expect(file.content).toContain(`Read had returned lines 1-2000`);
    expect(countTokens(file.content)).toBeLessThanOrEqual(HOST_PREVIEW_TOKENS);
    const rec = c.ccr.get(handleIn(file.content));
    expect(rec && originalText(rec)).toBe(json);
  });

  it("the event's cwd is a root too; outside every root only the host's text is kept", async () => {
    const dir = tmp();
    const path = join(dir, "events.ndjson");
    const nd = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ i, level: i === 2500 ? "error" : "info", msg: `event ${i}` }),
    ).join("\n");
    writeFileSync(path, nd);
    const shown = nd.split("\n").slice(0, 2000).join("\n");
    const inCwd = memoryContext();
    const out = await updated(
      claudeCodePostToolUse({ ...readEvent(path, shown, 3000), cwd: dir }, inCwd),
      "Read",
    );
    const content = (out.file as { content: string }).content;
    expect(originalText(inCwd.ccr.get(handleIn(content))!)).toBe(nd);
    const outside = memoryContext();
    const d = await claudeCodePostToolUse(readEvent(path, shown, 3000), outside);
    const text = readContent(d);
    expect(originalText(outside.ccr.get(handleIn(text))!)).toBe(shown);
    expect(text).not.toContain("Read had returned");
  });

  it("a Read the model limited, or of code, is never widened", async () => {
    const dir = tmp();
    const path = join(dir, "report.json");
    const json = longJson();
    writeFileSync(path, json);
    const shown = json.split("\n").slice(0, 2000).join("\n");
    const c = { ...memoryContext(), readRoots: [dir] };
    const d = await claudeCodePostToolUse(readEvent(path, shown, 4000, { limit: 2000 }), c);
    expect(originalText(c.ccr.get(handleIn(readContent(d)))!)).toBe(shown);
    const code = join(dir, "big.ts");
    const src = `${sourceCode()}\n${sourceCode()}\n${sourceCode()}\n${sourceCode()}`;
    writeFileSync(code, src);
    const cut = src.split("\n").slice(0, 2000).join("\n");
    expect(await claudeCodePostToolUse(readEvent(code, cut, src.split("\n").length), c)).toEqual({
      pass: "kind_code",
    });
  });
});
