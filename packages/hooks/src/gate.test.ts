// The gate: each cheap reason, and that it passes only where the full path passes too, with the
// same reason (the full path runs here with a keep that fails the test if it is ever called).
import { describe, expect, it } from "vitest";
import { bashEvent } from "./claudeCode.test-helpers.js";
import { gate } from "./gate.js";
import { type HookHost, runHook } from "./run.js";
import { bigLog } from "./samples.test-helpers.js";
import { DEFAULT_HOOK_SETTINGS, type HookSettings } from "./settings.js";
import type { HookContext } from "./shrink.js";

const settings = (over: Partial<HookSettings> = {}): HookSettings => ({ ...DEFAULT_HOOK_SETTINGS, ...over });

const mcp = (tool: string, response: unknown) => ({
  hook_event_name: "PostToolUse",
  tool_name: tool,
  tool_input: {},
  tool_response: response,
});
const gemini = (tool: string, llmContent: unknown, input: Record<string, unknown> = {}) => ({
  hook_event_name: "AfterTool",
  tool_name: tool,
  tool_input: input,
  tool_response: { llmContent },
  transcript_path: "/nowhere/tmp/project/chats/x.json",
});

const CASES: Array<[string, unknown, string, Partial<HookSettings>?]> = [
  ["a small Bash output", bashEvent("ls", "a\nb\n"), "below_floor"],
  [
    "a Bash output over max_input_bytes",
    bashEvent("cat big.log", bigLog(400)),
    "too_large",
    { maxInputBytes: 1024 },
  ],
  ["the raw marker", bashEvent("cat app.log # caveman:raw", bigLog()), "raw_requested"],
  ["our own retrieve", mcp("mcp__caveman__caveman_retrieve", [{ type: "text", text: bigLog() }]), "own_tool"],
  ["a denied tool", mcp("mcp__db__query", bigLog()), "denied", { deny: ["mcp__db__*"] }],
  ["a tool outside allow", bashEvent("cat app.log", bigLog()), "not_allowed", { allow: ["mcp__*"] }],
  ["a tool the hook does not know", { ...mcp("WebFetch", { text: bigLog() }) }, "unknown_tool"],
  ["an MCP image", mcp("mcp__x__shot", [{ type: "image", data: "AAAA" }]), "non_text_result"],
  ["Grep that lists files", mcp("Grep", { mode: "files_with_matches", filenames: [] }), "not_content_mode"],
  [
    "an event the hooks do not handle",
    { ...bashEvent("ls", bigLog()), hook_event_name: "Stop" },
    "wrong_event",
  ],
  ["the hooks switched off", bashEvent("cat app.log", bigLog()), "disabled", { enabled: false }],
  ["an empty output", bashEvent("true", ""), "not_smaller"],
  ["Gemini's small shell output", gemini("run_shell_command", "ok\n", { command: "ls" }), "below_floor"],
  [
    "Gemini's raw marker",
    gemini("run_shell_command", bigLog(), { command: "CAVEMAN_RAW=1 cat x.log" }),
    "raw_requested",
  ],
  ["Gemini's unknown tool", gemini("web_fetch", bigLog()), "unknown_tool"],
];

/** The full path with a keep that must never run: the gate's pass must be the full path's pass. */
function neverKeeps(s: HookSettings): HookContext {
  const fail = (): never => {
    throw new Error("keep called for an event the gate passed");
  };
  return { settings: s, keep: fail, keepText: fail, expired: () => false, persistRoots: [] };
}

describe("gate", () => {
  it.each(CASES)("passes %s cheaply, with the full path's own reason", async (_what, event, reason, over) => {
    const s = settings(over);
    const text = JSON.stringify(event);
    expect(gate(text, s)).toEqual({ act: false, reason });
    const host: HookHost =
      (event as { hook_event_name: string }).hook_event_name === "AfterTool" ? "gemini" : "claude-code";
    const full = await runHook(host, text, neverKeeps(s), { tempRoot: "/nowhere/tmp" });
    expect(full.reason).toBe(reason);
  });

  it("passes text that is not a JSON event as input_invalid", () => {
    expect(gate("{not json", settings())).toEqual({ act: false, reason: "input_invalid" });
    expect(gate("[1,2]", settings())).toEqual({ act: false, reason: "input_invalid" });
  });

  it("acts on an output over the floor, on stderr alone, and on a persisted output", () => {
    expect(gate(JSON.stringify(bashEvent("cat app.log", bigLog())), settings())).toEqual({ act: true });
    const stderrOnly = bashEvent("make", "", { stderr: bigLog() });
    expect(gate(JSON.stringify(stderrOnly), settings())).toEqual({ act: true });
    const persisted = bashEvent("cat app.log", "short preview", {
      persistedOutputPath: "/p/tool-results/x.txt",
    });
    expect(gate(JSON.stringify(persisted), settings())).toEqual({ act: true });
  });

  it("measures the floor in characters, so a multi-byte output is not cut short", () => {
    const floor = 500;
    const justUnder = "é".repeat(floor - 1);
    expect(gate(JSON.stringify(bashEvent("cat x", justUnder)), settings({ floorTokens: floor }))).toEqual({
      act: false,
      reason: "below_floor",
    });
    expect(
      gate(JSON.stringify(bashEvent("cat x", `${justUnder}é`)), settings({ floorTokens: floor })),
    ).toEqual({
      act: true,
    });
  });

  it("leaves an event without a name, and an MCP result it cannot read as text, to the full path", () => {
    const { hook_event_name: _, ...unnamed } = bashEvent("ls", "a\n");
    expect(gate(JSON.stringify(unnamed), settings())).toEqual({ act: true });
    expect(gate(JSON.stringify(gemini("read_file", [{ text: bigLog() }])), settings())).toEqual({
      act: true,
    });
  });

  it("sends a Bash PreToolUse to the wrap decision only where the command may be wrapped", () => {
    const pre = (command: string, mode = "bypassPermissions", tool = "Bash", input: object = {}) =>
      JSON.stringify({
        hook_event_name: "PreToolUse",
        tool_name: tool,
        permission_mode: mode,
        tool_input: { command, ...input },
      });
    expect(gate(pre("pytest -q"), settings())).toEqual({ act: true });
    expect(gate(pre("pytest -q", "default"), settings())).toEqual({ act: false, reason: "permission_mode" });
    expect(gate(pre("pytest -q", "default"), settings({ wrapCommands: "always" }))).toEqual({ act: true });
    expect(gate(pre("pytest -q"), settings({ wrapCommands: "off" }))).toEqual({
      act: false,
      reason: "wrap_off",
    });
    expect(gate(pre("x", "bypassPermissions", "Read"), settings())).toEqual({
      act: false,
      reason: "not_bash",
    });
    expect(gate(pre("npm run dev &"), settings())).toEqual({ act: false, reason: "background" });
    expect(gate(pre("make # caveman:raw"), settings())).toEqual({ act: false, reason: "raw_requested" });
    expect(gate(pre("vim a.ts"), settings())).toEqual({ act: false, reason: "interactive" });
    expect(gate(pre("make", "bypassPermissions", "Bash", { run_in_background: true }), settings())).toEqual({
      act: false,
      reason: "background",
    });
  });
});
