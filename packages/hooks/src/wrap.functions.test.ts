// The user's shell functions and aliases survive the wrap: Claude Code runs each command after
// sourcing a snapshot of the user's shell (functions, aliases, options), and the shell that
// `caveman-mcp run` starts for the command has none of them. Real bash processes, the host's own
// form (`source <snapshot> && eval '<command>' < /dev/null`): whatever the hook decides, the host
// prints what it would have printed unwrapped.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { bashPreEvent } from "./claudeCode.test-helpers.js";
import { DEFAULT_HOOK_SETTINGS } from "./settings.js";
import { claudeCodePreToolUse, unknownProgram } from "./wrap.js";

const base = tempDir("caveman-wrap-fn-");
const bin = join(base, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "realtool"), '#!/bin/sh\necho "realtool $*"\n');
chmodSync(join(bin, "realtool"), 0o755);
const PATH = `${bin}:/usr/bin:/bin`;
const snapshot = join(base, "snapshot.sh");
writeFileSync(
  snapshot,
  ['myfn() { echo "from-fn $*"; }', "alias gs='echo from-alias'", "shopt -s expand_aliases", ""].join("\n"),
);

// `sh -c 'shift 4; exec "$@"'` stands for caveman-mcp: it drops `run --stream-after-ms N --` and runs
// the rest, as the wrapper does (in a child shell that has not sourced the snapshot).
const opts = { self: ["sh", "-c", 'shift 4; exec "$@"', "caveman-mcp"], shell: "bash", path: PATH };

function host(command: string): { status: number | null; out: string } {
  const line = `source '${snapshot}' && eval '${command.replace(/'/g, `'"'"'`)}' < /dev/null`;
  const r = spawnSync("bash", ["-c", line], { env: { PATH, HOME: base }, encoding: "utf8", input: "" });
  return { status: r.status, out: r.stdout + r.stderr };
}

function decide(command: string) {
  return claudeCodePreToolUse(bashPreEvent(command, base), DEFAULT_HOOK_SETTINGS, opts);
}

function asRun(command: string): string {
  const d = decide(command);
  return "pass" in d
    ? command
    : (d.output.hookSpecificOutput as { updatedInput: { command: string } }).updatedInput.command;
}

describe("PreToolUse and the user's shell functions and aliases", () => {
  it.each(["myfn a b", "gs", "realtool x && myfn y", "if true; then myfn; fi", "realtool | gs"])(
    "%j: left alone, so it runs with the user's definitions",
    (command) => {
      expect(decide(command)).toEqual({ pass: "not_a_program" });
      expect(host(asRun(command))).toEqual(host(command));
      expect(host(command).status).toBe(0);
    },
  );

  it.each([
    "realtool a",
    "realtool a \\\n  --flag",
    "cat <<'EOF'\nnot_a_program at all\n  indented line\nEOF\nrealtool done",
    "cat <<-END\n\tmyfn is only text here\n\tEND\n",
    "echo hi; printf '%s\\n' x; true && realtool",
    "FOO=1 realtool",
    "./local-script.sh || $RUNNER x",
  ])("%j: programs on the PATH and shell builtins are still wrapped", (command) => {
    expect("output" in decide(command)).toBe(true);
  });

  it("the wrapped form prints what the host printed unwrapped", () => {
    for (const command of ["realtool a", "cat <<'EOF'\nnot_a_program at all\nEOF\nrealtool done"]) {
      expect(asRun(command)).not.toBe(command);
      expect(host(asRun(command))).toEqual(host(command));
    }
  });

  it("looks nothing up without a PATH", () => {
    expect(unknownProgram("myfn", "")).toBeNull();
    expect(unknownProgram("myfn", PATH)).toBe("myfn");
    expect(unknownProgram("realtool && myfn", PATH)).toBe("myfn");
  });
});
