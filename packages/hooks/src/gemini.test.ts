import { originalText } from "@caveman/ccr-store";
import { describe, expect, it } from "vitest";
import { geminiAfterTool } from "./gemini.js";
import { bigJson, bigLog, failingPytest, memoryContext } from "./samples.test-helpers.js";

const ctx = () => memoryContext();

const shell = (command: string, llmContent: unknown, error?: unknown) => ({
  hook_event_name: "AfterTool",
  tool_name: "run_shell_command",
  tool_input: { command },
  tool_response: { llmContent, returnDisplay: "", ...(error ? { error } : {}) },
});

describe("Gemini CLI AfterTool", () => {
  it("asks for a tail call of caveman_retrieve on the stored stand-in, which cites the stored original", async () => {
    const c = ctx();
    const out = await geminiAfterTool(shell("pytest", failingPytest()), c);
    if ("pass" in out) throw new Error(out.pass);
    const h = out.output.hookSpecificOutput as {
      hookEventName: string;
      tailToolCallRequest: { name: string; args: { recovery_handle: string } };
    };
    expect(h.hookEventName).toBe("AfterTool");
    expect(h.tailToolCallRequest.name).toBe("mcp_caveman_caveman_retrieve");
    const standIn = originalText(c.ccr.get(h.tailToolCallRequest.args.recovery_handle)!)!;
    expect(standIn).toContain("E       assert 100 == 70");
    const original = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(standIn)![1]!;
    expect(originalText(c.ccr.get(original)!)).toBe(failingPytest());
  });

  it("uses the configured retrieve tool name and reads Gemini text parts", async () => {
    const out = await geminiAfterTool(shell("cat app.log", [{ text: bigLog() }]), ctx(), {
      retrieveTool: "mcp_cm_caveman_retrieve",
    });
    expect(out).toMatchObject({
      output: { hookSpecificOutput: { tailToolCallRequest: { name: "mcp_cm_caveman_retrieve" } } },
    });
  });

  it("compresses read_file of data only, and MCP tools", async () => {
    const read = {
      tool_name: "read_file",
      tool_input: { absolute_path: "/w/d.json" },
      tool_response: { llmContent: bigJson() },
    };
    expect("output" in (await geminiAfterTool(read, ctx()))).toBe(true);
    expect(
      "output" in
        (await geminiAfterTool(
          { tool_name: "mcp_logs_tail", tool_response: { llmContent: bigLog() } },
          ctx(),
        )),
    ).toBe(true);
  });

  it("passes errors, our own tools, unknown tools, raw requests and bad input", async () => {
    const c = ctx();
    expect(await geminiAfterTool(shell("cat a.log", bigLog(), { message: "boom" }), c)).toEqual({
      pass: "unexpected_shape",
    });
    expect(
      await geminiAfterTool(
        { tool_name: "mcp_caveman_caveman_retrieve", tool_response: { llmContent: bigLog() } },
        c,
      ),
    ).toEqual({ pass: "own_tool" });
    expect(
      await geminiAfterTool({ tool_name: "web_fetch", tool_response: { llmContent: bigLog() } }, c),
    ).toEqual({
      pass: "unknown_tool",
    });
    expect(await geminiAfterTool(shell("cat a.log # caveman:raw", bigLog()), c)).toEqual({
      pass: "raw_requested",
    });
    expect(await geminiAfterTool({ tool_name: "x", hook_event_name: "BeforeTool" }, c)).toEqual({
      pass: "wrong_event",
    });
    expect(await geminiAfterTool("nope", c)).toEqual({ pass: "input_invalid" });
    expect(c.ccr.stats().entries).toBe(0);
  });
});
