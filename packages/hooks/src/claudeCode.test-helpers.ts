// Test helpers for the Claude Code hook's tests: a Bash PostToolUse event, the replacement
// output a decision carries (checked against the shape Claude Code accepts), and the recovery
// handle named in a compressed text.
import { expect } from "vitest";
import type { claudeCodePostToolUse } from "./claudeCode.js";
import { claudeCodeShapeProblem } from "./shapes.js";

export function updated(d: ReturnType<typeof claudeCodePostToolUse>, tool = "Bash"): Record<string, unknown> {
  if ("pass" in d) throw new Error(`passed: ${d.pass}`);
  const h = d.output.hookSpecificOutput as Record<string, unknown>;
  expect(h.hookEventName).toBe("PostToolUse");
  expect(claudeCodeShapeProblem(tool, h.updatedToolOutput)).toBeNull();
  return h.updatedToolOutput as Record<string, unknown>;
}

export function handleIn(text: string): string {
  const m = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(text);
  if (!m) throw new Error("no recovery line");
  return m[1]!;
}

export const bashEvent = (command: string, stdout: string, extra: Record<string, unknown> = {}) => ({
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_response: { stdout, stderr: "", interrupted: false, isImage: false, ...extra },
  tool_use_id: "toolu_1",
  session_id: "s1",
  cwd: "/tmp",
});
