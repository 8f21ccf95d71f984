import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import type { LaunchPlan } from "./resolve.js";
import { FORWARDED_SIGNALS, runPlan, signalExitCode } from "./run.js";

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "server.mjs");

function plan(command: string, args: string[], env: Record<string, string> = {}): LaunchPlan {
  return { via: "override", command, args, env, notice: null, tried: [], foreign: [] };
}

/** A stand-in for `process` as a signal source, so tests can "send" signals to the launcher. */
class FakeSignals extends EventEmitter {}

describe("runPlan", () => {
  it("forwards a signal to the child, reports its exit, and removes its listeners", async () => {
    const signals = new FakeSignals();
    const ready = join(tempDir("cm-run-"), "ready");
    const p = plan(process.execPath, [FIXTURE, "--wait-signal", "--ready-file", ready]);
    const ended = runPlan(p, { args: [], env: process.env, signals: signals as unknown as NodeJS.Process });
    expect(signals.listenerCount("SIGTERM")).toBe(1);
    while (!existsSync(ready)) await new Promise((r) => setTimeout(r, 20));
    signals.emit("SIGTERM", "SIGTERM");
    expect(await ended).toEqual({ kind: "exit", code: 0 });
    for (const s of FORWARDED_SIGNALS) expect(signals.listenerCount(s)).toBe(0);
  });

  it("reports a death by signal as the signal, never as an exit code", async () => {
    const end = await runPlan(plan(process.execPath, [FIXTURE, "--die-by", "SIGTERM"]), {
      args: [],
      env: process.env,
      signals: new FakeSignals() as unknown as NodeJS.Process,
    });
    expect(end).toEqual({ kind: "signal", signal: "SIGTERM" });
  });

  it("adds the plan's variables to the environment and appends the user's arguments", async () => {
    const p = plan(process.execPath, [FIXTURE, "--exit-env"], { CAVEMAN_TEST_VAR: "7" });
    const env = { CAVEMAN_TEST_VAR: "3" };
    const end = await runPlan(p, {
      args: ["CAVEMAN_TEST_VAR"],
      env,
      signals: new FakeSignals() as unknown as NodeJS.Process,
    });
    expect(end).toEqual({ kind: "exit", code: 7 });
  });

  it("maps a command that does not exist to 127 with a typed error", async () => {
    const end = await runPlan(plan("/nonexistent/caveman-server", []), {
      args: [],
      env: process.env,
      signals: new FakeSignals() as unknown as NodeJS.Process,
    });
    expect(end.kind).toBe("spawn-error");
    if (end.kind !== "spawn-error") return;
    expect(end.code).toBe(127);
    expect(end.error.code).toBe("launcher_spawn_failed");
    expect(end.error.cause).toBeInstanceOf(Error);
  });

  it("maps a directory (found but not runnable) to 126", async () => {
    const end = await runPlan(plan(dirname(FIXTURE), []), {
      args: [],
      env: process.env,
      signals: new FakeSignals() as unknown as NodeJS.Process,
    });
    expect(end.kind === "spawn-error" && end.code).toBe(126);
  });
});

describe("signalExitCode", () => {
  it("follows the 128 + signal number convention", () => {
    expect(signalExitCode("SIGINT")).toBe(130);
    expect(signalExitCode("SIGTERM")).toBe(143);
    expect(signalExitCode("SIGHUP")).toBe(129);
  });
});
