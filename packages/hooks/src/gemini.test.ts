import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { originalText } from "@caveman/ccr-store";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { geminiAfterTool, projectTempDir } from "./gemini.js";
import { bigJson, bigLog, failingPytest, memoryContext } from "./samples.test-helpers.js";

const ctx = () => memoryContext();

/** A Gemini temp root with one project, and the transcript path Gemini would send. */
function gemini() {
  const tempRoot = join(tempDir(), "tmp");
  const project = join(tempRoot, "work");
  mkdirSync(join(project, "chats"), { recursive: true });
  return { tempRoot, project, transcript: join(project, "chats", "session-1.jsonl") };
}

// What Gemini CLI 0.61.0 hands the hook for a shell command: its output already wrapped.
const wrap = (s: string) => `<untrusted_context>\nOutput: ${s}\nProcess Group PGID: 81\n</untrusted_context>`;

const shell = (g: ReturnType<typeof gemini>, command: string, llmContent: unknown, error?: unknown) => ({
  hook_event_name: "AfterTool",
  transcript_path: g.transcript,
  tool_name: "run_shell_command",
  tool_input: { command },
  tool_response: { llmContent, returnDisplay: "", ...(error ? { error } : {}) },
});

function tail(out: Awaited<ReturnType<typeof geminiAfterTool>>): {
  name: string;
  args: { file_path: string };
} {
  if ("pass" in out) throw new Error(out.pass);
  return (
    out.output.hookSpecificOutput as { tailToolCallRequest: { name: string; args: { file_path: string } } }
  ).tailToolCallRequest;
}

describe("Gemini CLI AfterTool", () => {
  it("asks for read_file of a stand-in whose recovery line sits outside the untrusted wrapper, exactly once", async () => {
    const g = gemini();
    const c = ctx();
    const out = await geminiAfterTool(shell(g, "pytest", wrap(failingPytest())), c, { tempRoot: g.tempRoot });
    const t = tail(out);
    expect(t.name).toBe("read_file");
    expect(t.args.file_path.startsWith(join(g.project, "caveman"))).toBe(true);
    const standIn = readFileSync(t.args.file_path, "utf8");
    const [header, ...rest] = standIn.split("\n");
    expect(header).toMatch(
      /^\[caveman: [a-z]+ compressed, .*caveman_retrieve recovery_handle "ccr_[0-9a-f]{32}"/,
    );
    const wrapped = rest.join("\n");
    expect(wrapped.startsWith("<untrusted_context>\nOutput: ")).toBe(true);
    expect(wrapped.endsWith("\n</untrusted_context>\n")).toBe(true);
    expect(standIn.match(/<untrusted_context>/g)).toHaveLength(1);
    expect(wrapped).toContain("E       assert 100 == 70");
    expect(wrapped).not.toContain("recovery_handle");
    // The original kept is the tool's own output, without Gemini's wrapper.
    const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(header!)![1]!;
    expect(originalText(c.ccr.get(handle)!)).toBe(`Output: ${failingPytest()}\nProcess Group PGID: 81`);
  });

  it("reads Gemini text parts, read_file of data and MCP tools; passes its own stand-in on the tail call", async () => {
    const g = gemini();
    const opts = { tempRoot: g.tempRoot };
    expect(tail(await geminiAfterTool(shell(g, "cat app.log", [{ text: bigLog() }]), ctx(), opts)).name).toBe(
      "read_file",
    );
    const read = {
      transcript_path: g.transcript,
      tool_name: "read_file",
      tool_input: { absolute_path: "/w/d.json" },
      tool_response: { llmContent: bigJson() },
    };
    const t = tail(await geminiAfterTool(read, ctx(), opts));
    const mcp = {
      transcript_path: g.transcript,
      tool_name: "mcp_logs_tail",
      tool_response: { llmContent: bigLog() },
    };
    expect("output" in (await geminiAfterTool(mcp, ctx(), opts))).toBe(true);
    const again = {
      ...read,
      tool_input: { file_path: t.args.file_path },
      tool_response: { llmContent: bigLog() },
    };
    expect(await geminiAfterTool(again, ctx(), opts)).toEqual({ pass: "own_stand_in" });
  });

  it("passes without a transcript inside Gemini's temp root, and when the stand-in cannot be written", async () => {
    const g = gemini();
    const c = ctx();
    const opts = { tempRoot: g.tempRoot };
    for (const transcript of [
      "",
      "/etc/chats/x.jsonl",
      join(g.tempRoot, "chats", "x.jsonl"),
      join(g.project, "x.jsonl"),
    ])
      expect(
        await geminiAfterTool({ ...shell(g, "cat a.log", bigLog()), transcript_path: transcript }, c, opts),
      ).toEqual({
        pass: "no_project_temp_dir",
      });
    // A planted link where our folder goes: nothing is written through it.
    const outside = tempDir();
    symlinkSync(outside, join(g.project, "caveman"));
    writeFileSync(join(outside, "keep"), "x");
    expect(await geminiAfterTool(shell(g, "cat a.log", bigLog()), c, opts)).toEqual({
      pass: "stand_in_unwritable",
    });
    expect(readdirSync(outside)).toEqual(["keep"]);
    expect(projectTempDir(g.transcript, g.tempRoot)).toBe(g.project);
  });

  it("passes errors, our own tools, unknown tools, raw requests and bad input", async () => {
    const g = gemini();
    const c = ctx();
    const opts = { tempRoot: g.tempRoot };
    expect(await geminiAfterTool(shell(g, "cat a.log", bigLog(), { message: "boom" }), c, opts)).toEqual({
      pass: "unexpected_shape",
    });
    expect(
      await geminiAfterTool(
        {
          transcript_path: g.transcript,
          tool_name: "mcp_caveman_caveman_retrieve",
          tool_response: { llmContent: bigLog() },
        },
        c,
        opts,
      ),
    ).toEqual({ pass: "own_tool" });
    expect(
      await geminiAfterTool(
        { transcript_path: g.transcript, tool_name: "web_fetch", tool_response: { llmContent: bigLog() } },
        c,
        opts,
      ),
    ).toEqual({ pass: "unknown_tool" });
    expect(await geminiAfterTool(shell(g, "cat a.log # caveman:raw", bigLog()), c, opts)).toEqual({
      pass: "raw_requested",
    });
    expect(await geminiAfterTool({ tool_name: "x", hook_event_name: "BeforeTool" }, c, opts)).toEqual({
      pass: "wrong_event",
    });
    expect(await geminiAfterTool("nope", c, opts)).toEqual({ pass: "input_invalid" });
    expect(c.ccr.stats().entries).toBe(0);
  });
});
