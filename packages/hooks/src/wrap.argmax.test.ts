// A rewritten command must still start where the original did. The host hands a command to its
// shell as one `-c` argument, `eval '<command>'` with each `'` spelled `'"'"'` (Claude Code's form),
// and Linux refuses a single argument past 128 KiB; wrapping quotes the command once more. Real
// bash processes: the hook either leaves the command alone or its rewrite runs.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bashPreEvent } from "./claudeCode.test-helpers.js";
import { DEFAULT_HOOK_SETTINGS } from "./settings.js";
import { claudeCodePreToolUse, hostArgBytes } from "./wrap.js";

// `true` stands for caveman-mcp: it takes any arguments and exits 0, so the host line's status says
// only whether the shell could be started with it.
const opts = { self: ["true"], shell: "bash" };

function hostLine(command: string): string {
  return `eval '${command.replace(/'/g, `'"'"'`)}' < /dev/null`;
}

function runsInHost(command: string): { status: number | null; error?: string } {
  const r = spawnSync("bash", ["-c", hostLine(command)], {
    encoding: "utf8",
    input: "",
    maxBuffer: 16 << 20,
  });
  return {
    status: r.status,
    ...(r.error ? { error: (r.error as NodeJS.ErrnoException).code ?? "error" } : {}),
  };
}

function decide(command: string) {
  return claudeCodePreToolUse(bashPreEvent(command), DEFAULT_HOOK_SETTINGS, opts);
}

/** A heredoc writing `lines` short lines with an apostrophe each: the way a model writes a file. */
function heredoc(lines: number, line = "it's"): string {
  return `cat <<'EOF' >/dev/null\n${`${line}\n`.repeat(lines)}EOF\n`;
}

describe("PreToolUse near the host's argument limit", () => {
  it("leaves a quote-rich heredoc that runs as it is alone rather than rewrite it into one that cannot start", () => {
    const command = heredoc(9000);
    expect(command.length).toBeLessThan(64 * 1024);
    expect(runsInHost(command)).toEqual({ status: 0 });
    const d = decide(command);
    if ("pass" in d) {
      expect(d.pass).toBe("command_too_long");
      return;
    }
    const rewritten = (d.output.hookSpecificOutput as { updatedInput: { command: string } }).updatedInput
      .command;
    expect(runsInHost(rewritten)).toEqual({ status: 0 });
  });

  it.each([
    ["few quotes", 200, "it's"],
    ["some quotes", 2000, "it's"],
    ["many quotes", 6000, "it's"],
    ["more quotes", 12_000, "'"],
    ["plain text", 10_000, "plain line"],
    ["two-byte characters", 12_000, "été"],
  ])("%s: either the command is left alone or its rewrite starts in the host's shell", (_, lines, line) => {
    const command = heredoc(lines, line);
    const d = decide(command);
    if ("pass" in d) {
      expect(["command_too_long"]).toContain(d.pass);
      return;
    }
    const rewritten = (d.output.hookSpecificOutput as { updatedInput: { command: string } }).updatedInput
      .command;
    expect(runsInHost(rewritten)).toEqual({ status: 0 });
  });

  it("still wraps an ordinary command, and counts bytes, not characters", () => {
    expect("output" in decide(heredoc(200))).toBe(true);
    expect(hostArgBytes("a'b")).toBe(3 + 4 + 2);
    expect(hostArgBytes("é")).toBe(2 + 2);
  });
});
