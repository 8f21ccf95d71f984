// The PreToolUse decision: which Bash commands run under `caveman-mcp run`, and the exact input
// Claude Code gets back.
import { describe, expect, it } from "vitest";
import { bashPreEvent } from "./claudeCode.test-helpers.js";
import { DEFAULT_HOOK_SETTINGS } from "./settings.js";
import { claudeCodePreToolUse, unwrappedCommand, wrappedCommand, wrapRefusal } from "./wrap.js";

const opts = { self: ["/usr/bin/node", "/opt/caveman mcp/cli.mjs"], shell: "bash" };
const S = DEFAULT_HOOK_SETTINGS;
const pre = (command: string, input: Record<string, unknown> = {}) =>
  bashPreEvent(command, "/w", { description: "Run tests", ...input });

describe("PreToolUse: which commands are wrapped", () => {
  it.each([
    ["pytest -q", null],
    ["cargo build --release 2>&1", null],
    ["npx tsc --noEmit", null],
    ["git log -p -5 | head -400", null],
    ["cat app.log", null],
    ["FOO=1 npm test", null],
    ["grep -rn TODO src > /tmp/out 2>&1; cat /tmp/out", null],
    ["python script.py --flag", null],
    ["pytest -q # caveman:raw", "raw_requested"],
    ["CAVEMAN_RAW=1 pytest", "raw_requested"],
    ["npm run dev", "streaming"],
    ["pnpm dev", "streaming"],
    ["python -m http.server 8000", "streaming"],
    ["uvicorn app:main --reload", "streaming"],
    ["docker compose up", "streaming"],
    ["tail -f /var/log/syslog", "streaming"],
    ["kubectl logs -f pod/x", "streaming"],
    ["tsc --watch", "streaming"],
    ["npx vitest --watch", "streaming"],
    ["watch -n1 ls", "interactive"],
    ["less README.md", "interactive"],
    ["vim a.ts", "interactive"],
    ["python", "interactive"],
    ["psql", "interactive"],
    ["git rebase -i HEAD~3", "interactive"],
    ["git commit", "interactive"],
    ["./server &", "background"],
    ["node server.js & sleep 1; curl localhost:3000", "background"],
    ["cd backend && pytest", "shell_state"],
    ["export FOO=1", "shell_state"],
    ["source .venv/bin/activate && pytest", "shell_state"],
    ["FOO=1", "shell_state"],
    ["", "empty_command"],
    ["/usr/bin/node /x/cli.mjs run --stream-after-ms 60000 -- bash -c 'pytest'", "already_wrapped"],
    ["npx caveman-mcp run -- pytest", "already_wrapped"],
  ])("%j → %s", (command, reason) => {
    expect(wrapRefusal(command, {}, S)).toBe(reason);
  });

  it("keeps 2>&1, &> and && apart from a background &", () => {
    expect(wrapRefusal("make 2>&1 && make test &> out.txt", {}, S)).toBeNull();
  });

  it("wraps only in bypassPermissions mode by default (the host checks allow rules against the rewrite), as the setting says", () => {
    const inDefault = { ...pre("pytest"), permission_mode: "default" };
    expect(claudeCodePreToolUse(inDefault, S, opts)).toEqual({ pass: "permission_mode" });
    expect("output" in claudeCodePreToolUse(inDefault, { ...S, wrapCommands: "always" }, opts)).toBe(true);
    expect(claudeCodePreToolUse(pre("pytest"), { ...S, wrapCommands: "off" }, opts)).toEqual({
      pass: "wrap_off",
    });
    expect("output" in claudeCodePreToolUse(pre("pytest"), S, opts)).toBe(true);
  });

  it("never wraps run_in_background, another tool, or when the hooks are off", () => {
    expect(claudeCodePreToolUse(pre("pytest", { run_in_background: true }), S, opts)).toEqual({
      pass: "background",
    });
    expect(claudeCodePreToolUse({ ...pre("x"), tool_name: "Read" }, S, opts)).toEqual({ pass: "not_bash" });
    expect(claudeCodePreToolUse(pre("pytest"), { ...S, enabled: false }, opts)).toEqual({ pass: "disabled" });
    expect(claudeCodePreToolUse(pre("pytest"), S, undefined)).toEqual({ pass: "no_wrapper" });
    expect(claudeCodePreToolUse({ ...pre("pytest"), hook_event_name: "PostToolUse" }, S, opts)).toEqual({
      pass: "wrong_event",
    });
  });
});

describe("PreToolUse: the rewrite", () => {
  it("gives back the whole input with the command wrapped, and no permission decision", () => {
    const d = claudeCodePreToolUse(pre("pytest -q tests/ 'a b'", { timeout: 300_000 }), S, opts);
    if ("pass" in d) throw new Error(d.pass);
    const h = d.output.hookSpecificOutput as Record<string, unknown>;
    expect(Object.keys(h).sort()).toEqual(["hookEventName", "updatedInput"]);
    expect(h.hookEventName).toBe("PreToolUse");
    expect(h.updatedInput).toEqual({
      command: `/usr/bin/node '/opt/caveman mcp/cli.mjs' run --stream-after-ms 150000 -- bash -c 'pytest -q tests/ '\\''a b'\\'''`,
      description: "Run tests",
      timeout: 300_000,
    });
  });

  it("quotes any command so the shell gets it back byte for byte, and finds it again for hints", () => {
    for (const cmd of ["echo 'it''s' \"$HOME\" `date` \\n", "cat <<'EOF'\nline $x\nEOF", "a=1; echo $a"]) {
      const w = wrappedCommand(cmd, 120_000, opts);
      expect(w).toContain("--stream-after-ms 60000 -- bash -c ");
      expect(unwrappedCommand(w)).toBe(cmd);
    }
    expect(unwrappedCommand("pytest -q")).toBe("pytest -q");
  });
});

describe("PreToolUse through runHook", () => {
  it("prints one JSON line for a wrapped command, and nothing where no wrapper is configured", async () => {
    const { runHook } = await import("./run.js");
    const { memoryContext } = await import("./samples.test-helpers.js");
    const event = JSON.stringify(pre("pytest -q"));
    const run = await runHook("claude-code", event, { ...memoryContext(), wrap: opts });
    expect(run.reason).toBe("compressed");
    const printed = JSON.parse(run.stdout) as { hookSpecificOutput: { updatedInput: { command: string } } };
    expect(unwrappedCommand(printed.hookSpecificOutput.updatedInput.command)).toBe("pytest -q");
    expect(await runHook("claude-code", event, memoryContext())).toEqual({
      stdout: "",
      reason: "no_wrapper",
      handles: [],
    });
  });
});
