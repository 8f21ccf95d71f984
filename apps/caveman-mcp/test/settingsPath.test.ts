// A hook settings path that is not a regular file: the hook and the server must start anyway,
// with the hooks off and hook_settings_invalid named, and never wait on the path (a FIFO with no
// writer would block a reading open forever).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, sandbox } from "./helpers.js";
import { claudeBash, logText } from "./hookSamples.js";

describe("a FIFO at the hook settings path", () => {
  it("is refused with hook_settings_invalid: the hook passes and doctor says why, neither hangs", () => {
    const box = sandbox();
    mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
    execFileSync("mkfifo", [join(box.env.HOME!, ".caveman", "hooks.json")]);
    // A hang is what failed before: the bound is generous for a loaded machine, far below forever.
    const hook = spawnSync(process.execPath, [CLI, "hook", "claude-code"], {
      env: box.env,
      cwd: box.root,
      input: claudeBash("cat app.log", logText()),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(hook.signal).toBeNull();
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe("");
    expect(hook.stderr).toMatch(/passed \(settings_invalid: .*hook_settings_invalid: is a FIFO/);
    const doctor = spawnSync(process.execPath, [CLI, "doctor"], {
      env: box.env,
      cwd: box.root,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(doctor.signal).toBeNull();
    expect(doctor.stdout).toMatch(/FAIL hook settings: .*hook_settings_invalid: is a FIFO/);
  });
});
