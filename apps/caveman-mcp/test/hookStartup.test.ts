// What a hook call loads and how long it may last: a pass decided by the gate loads neither the
// engine, the tokenizer nor SQLite (seen in a trace of every module the process loads), and past
// its budget a hook busy compressing prints nothing and exits 0.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";
import { claudeBash, logText } from "./hookSamples.js";
import { loadedFiles, tracer } from "./trace.js";

const TRACER = tracer();

function settingsFile(box: Sandbox, settings: Record<string, unknown>): void {
  mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
  writeFileSync(join(box.env.HOME!, ".caveman", "hooks.json"), JSON.stringify(settings));
}

/** One traced hook call: its verdict and the files it loaded. */
function traced(box: Sandbox, input: string, env: Record<string, string> = {}) {
  const trace = join(box.base, `trace-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(trace, "");
  const r = spawnSync(process.execPath, ["--import", TRACER, CLI, "hook", "claude-code"], {
    env: { ...box.env, TRACE_FILE: trace, ...env },
    cwd: box.root,
    input,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const loaded = loadedFiles(trace);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, loaded };
}

/** The loaded files that hold the engine, the tokenizer or a SQLite driver. */
function heavy(loaded: string[]): string[] {
  return loaded.filter((file) => {
    if (/better-sqlite3/.test(file)) return true;
    const text = readFileSync(file, "utf8");
    return /packages\/engine\/dist|node_modules\/\.pnpm\/gpt-tokenizer|ccr-store\/dist\/sqlite/.test(text);
  });
}

describe("hook start-up: decide before loading", () => {
  it.each([
    ["a small output", claudeBash("ls", "a\nb\n"), {}, "below_floor"],
    ["the off switch", claudeBash("cat app.log", logText()), { CAVEMAN_HOOK: "off" }, "disabled"],
    [
      "our own retrieve",
      JSON.stringify({
        hook_event_name: "PostToolUse",
        tool_name: "mcp__caveman__caveman_retrieve",
        tool_response: [{ type: "text", text: logText() }],
      }),
      {},
      "own_tool",
    ],
    ["the raw marker", claudeBash("cat app.log # caveman:raw", logText()), {}, "raw_requested"],
    [
      "an event the hooks do not handle",
      JSON.stringify({ hook_event_name: "Stop", tool_name: "Bash", tool_response: { stdout: logText() } }),
      {},
      "wrong_event",
    ],
  ])("%s passes without loading the engine, the tokenizer or SQLite", (_what, input, env, reason) => {
    const box = sandbox();
    settingsFile(box, { budget_ms: 60_000, stdin_timeout_ms: 30_000 });
    const r = traced(box, input, env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`passed (${reason})`);
    expect(r.loaded.some((f) => f.endsWith("cli.js"))).toBe(true);
    expect(heavy(r.loaded)).toEqual([]);
  });

  it("a compress loads them (so the trace above sees what it looks for)", () => {
    const box = sandbox();
    settingsFile(box, { budget_ms: 60_000, stdin_timeout_ms: 30_000 });
    const r = traced(box, claudeBash("cat app.log", logText()));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("compressed");
    expect(heavy(r.loaded).length).toBeGreaterThan(0);
  });
});

describe("hook start-up: bounded by the budget", () => {
  it("past its budget a hook still compressing prints nothing and exits 0", () => {
    const box = sandbox();
    // Far more than fits the budget: megabytes of log to load the engine for and compress.
    settingsFile(box, { budget_ms: 300, stdin_timeout_ms: 30_000 });
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [CLI, "hook", "claude-code"], {
      env: box.env,
      cwd: box.root,
      input: claudeBash("cat huge.log", logText(60_000)),
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    const ms = Date.now() - t0;
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    // On a loaded machine start-up alone can use the budget, and then stdin is not finished in time.
    expect(r.stderr).toMatch(/passed \((deadline|stdin_unfinished)\)/);
    // Generous: the same input compresses in seconds; the bound is the budget plus start and exit.
    expect(ms).toBeLessThan(20_000);
  });
});

describe("hook start-up: the PreToolUse wrap", () => {
  it("names this binary's cli, not the worker's file, in the wrapped command, which then runs", () => {
    const box = sandbox();
    settingsFile(box, { budget_ms: 60000, stdin_timeout_ms: 30000 });
    const event = {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      permission_mode: "bypassPermissions",
      session_id: "s1",
      cwd: box.root,
      tool_input: { command: "echo wrapped; exit 3" },
    };
    const r = traced(box, JSON.stringify(event));
    expect(r.code).toBe(0);
    const command: string = JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command;
    expect(command).toContain(` ${CLI} run --stream-after-ms `);
    expect(command).not.toContain("hook-worker");
    const ran = spawnSync("/bin/sh", ["-c", command], { env: box.env, cwd: box.root, encoding: "utf8" });
    expect({ status: ran.status, stdout: ran.stdout }).toEqual({ status: 3, stdout: "wrapped\n" });
  });
});
