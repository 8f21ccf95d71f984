// Hook events as Claude Code and Gemini CLI send them, with realistic large outputs.
export function logText(lines = 3000, errorAt = 1700): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const ts = `2026-11-02T09:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
    out.push(
      i === errorAt
        ? `${ts} ERROR orders charge failed for order 98123: card_declined`
        : `${ts} INFO http GET /api/items/${i % 50} 200 ${(i * 37) % 400}ms`,
    );
  }
  return `${out.join("\n")}\n`;
}

export function claudeBash(command: string, stdout: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "s-1",
    transcript_path: "/tmp/none.jsonl",
    cwd: "/tmp",
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "run" },
    tool_response: { stdout, stderr: "", interrupted: false, isImage: false, ...extra },
    tool_use_id: "toolu_01",
  });
}

export function geminiShell(command: string, output: string, transcript?: string): string {
  return JSON.stringify({
    session_id: "g-1",
    ...(transcript ? { transcript_path: transcript } : {}),
    hook_event_name: "AfterTool",
    tool_name: "run_shell_command",
    tool_input: { command },
    tool_response: { llmContent: output, returnDisplay: output.slice(0, 100) },
  });
}
