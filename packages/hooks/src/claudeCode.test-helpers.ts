// Test helpers for the Claude Code hook's tests: a Bash PostToolUse or PreToolUse event, the replacement
// output a decision carries (checked against the shape Claude Code accepts), and the recovery
// handle named in a compressed text.
import { parseKeptHeader } from "@caveman/keep";
import { expect } from "vitest";
import type { claudeCodePostToolUse } from "./claudeCode.js";
import { claudeCodeShapeProblem } from "./shapes.js";

export async function updated(
  decision: ReturnType<typeof claudeCodePostToolUse>,
  tool = "Bash",
): Promise<Record<string, unknown>> {
  const d = await decision;
  if ("pass" in d) throw new Error(`passed: ${d.pass}`);
  const h = d.output.hookSpecificOutput as Record<string, unknown>;
  expect(h.hookEventName).toBe("PostToolUse");
  expect(claudeCodeShapeProblem(tool, h.updatedToolOutput)).toBeNull();
  return h.updatedToolOutput as Record<string, unknown>;
}

/** The handle a stand-in's header cites (the header is its first line). */
export function handleIn(text: string): string {
  const facts = parseKeptHeader(text.split("\n")[0] ?? "");
  if (!facts) throw new Error("no header line");
  return facts.handle;
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

/** A Bash PreToolUse event in a bypassPermissions session (where the wrapper runs by default). */
export function bashPreEvent(command: string, cwd = "/w", input: Record<string, unknown> = {}) {
  return {
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, ...input },
    session_id: "s1",
    cwd,
    permission_mode: "bypassPermissions",
  };
}
