// The Claude Code PostToolUse hook on Read, Grep and MCP tool output.
import { describe, expect, it } from "vitest";
import { claudeCodePostToolUse } from "./claudeCode.js";
import { updated } from "./claudeCode.test-helpers.js";
import { bigGrep, bigJson, bigLog, memoryContext, sourceCode } from "./samples.test-helpers.js";

const ctx = memoryContext;

describe("Claude Code PostToolUse: Read, Grep, MCP", () => {
  it("Read of a large JSON file keeps the Read shape with fresh line counts", async () => {
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
    const out = await updated(claudeCodePostToolUse(ev, c), "Read");
    expect(out.type).toBe("text");
    const file = out.file as Record<string, unknown>;
    expect(Object.keys(file).sort()).toEqual(["content", "filePath", "numLines", "startLine", "totalLines"]);
    expect(file.numLines).toBe((file.content as string).trimEnd().split("\n").length);
    expect(file.totalLines).toBe(2000);
    expect(file.content as string).toContain('"status":"error"');
  });

  it("Read of source code passes", async () => {
    const ev = {
      tool_name: "Read",
      tool_input: {},
      tool_response: {
        type: "text",
        file: { filePath: "/w/a.ts", content: sourceCode(), numLines: 600, startLine: 1, totalLines: 600 },
      },
    };
    expect("pass" in (await claudeCodePostToolUse(ev, ctx()))).toBe(true);
  });

  it("Grep in content mode keeps {numFiles, filenames, mode, content, numLines}", async () => {
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
    const out = await updated(claudeCodePostToolUse(ev, ctx()), "Grep");
    expect(Object.keys(out).sort()).toEqual(["content", "filenames", "mode", "numFiles", "numLines"]);
    expect(out.numLines).toBe((out.content as string).trimEnd().split("\n").length);
    expect(
      await claudeCodePostToolUse(
        { ...ev, tool_response: { mode: "files_with_matches", numFiles: 3, filenames: ["a"] } },
        ctx(),
      ),
    ).toEqual({
      pass: "not_content_mode",
    });
  });

  it("MCP results come back as text blocks (or a string when given one); non-text blocks pass", async () => {
    const log = bigLog();
    const blocks = (await updated(
      claudeCodePostToolUse(
        { tool_name: "mcp__logs__tail", tool_input: {}, tool_response: [{ type: "text", text: log }] },
        ctx(),
      ),
      "mcp__logs__tail",
    )) as unknown;
    expect(Array.isArray(blocks)).toBe(true);
    expect((blocks as Array<{ type: string }>)[0]!.type).toBe("text");
    const s = (await updated(
      claudeCodePostToolUse({ tool_name: "mcp__logs__tail", tool_response: log }, ctx()),
      "mcp__logs__tail",
    )) as unknown;
    expect(typeof s).toBe("string");
    expect(
      await claudeCodePostToolUse(
        { tool_name: "mcp__x__y", tool_response: [{ type: "image", data: "" }] },
        ctx(),
      ),
    ).toEqual({ pass: "non_text_result" });
  });

  it("never touches caveman_retrieve or the edit tools, and honours deny/allow/off", async () => {
    const log = [{ type: "text", text: bigLog() }];
    for (const name of [
      "mcp__caveman__caveman_retrieve",
      "mcp__cm__caveman_retrieve",
      "mcp__caveman__be-read",
    ])
      expect(await claudeCodePostToolUse({ tool_name: name, tool_response: log }, ctx())).toEqual({
        pass: "own_tool",
      });
    expect(
      await claudeCodePostToolUse(
        { tool_name: "mcp__logs__tail", tool_response: log },
        ctx({ deny: ["mcp__logs__*"] }),
      ),
    ).toEqual({ pass: "denied" });
    expect(
      await claudeCodePostToolUse(
        { tool_name: "mcp__logs__tail", tool_response: log },
        ctx({ allow: ["Bash"] }),
      ),
    ).toEqual({ pass: "not_allowed" });
    expect(
      await claudeCodePostToolUse(
        { tool_name: "mcp__logs__tail", tool_response: log },
        ctx({ enabled: false }),
      ),
    ).toEqual({ pass: "disabled" });
  });

  it("unknown tools, other events and malformed input pass", async () => {
    expect(await claudeCodePostToolUse({ tool_name: "WebFetch", tool_response: { x: 1 } }, ctx())).toEqual({
      pass: "unknown_tool",
    });
    expect(await claudeCodePostToolUse({ tool_name: "Bash", hook_event_name: "PreToolUse" }, ctx())).toEqual({
      pass: "wrong_event",
    });
    for (const bad of [null, 3, "x", [], {}])
      expect("pass" in (await claudeCodePostToolUse(bad, ctx()))).toBe(true);
  });
});
