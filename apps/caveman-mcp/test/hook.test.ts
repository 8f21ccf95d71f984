// `caveman-mcp hook`: the real binary fed real hook JSON on stdin, and the fault matrix — each
// fault passes the original (empty stdout), exits 0, and leaves nothing half-written in the store.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";
import { claudeBash, geminiShell, logText } from "./hookSamples.js";

/**
 * A second SQLite connection to hold the store's lock, on the driver this Node has: the matrix runs
 * these tests under Node 22-26, where better-sqlite3's binding (built for Node 20) does not load.
 */
function openLocker(path: string): { exec(sql: string): void; close(): void } {
  type Sqlite = { DatabaseSync: new (path: string) => { exec(sql: string): void; close(): void } };
  const builtin = process.getBuiltinModule?.("node:sqlite") as Sqlite | undefined;
  return builtin ? new builtin.DatabaseSync(path) : new Database(path);
}

function hook(box: Sandbox, host: string, input: string | Buffer, env: Record<string, string> = {}) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [CLI, "hook", host], {
    env: { ...box.env, ...env },
    cwd: box.root,
    input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t0 };
}

function cli(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: box.env,
    cwd: box.root,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function entries(box: Sandbox): number {
  const r = cli(box, ["stats", "--json"]);
  return (JSON.parse(r.stdout) as { store: { entries: number } }).store.entries;
}

/**
 * Tests that expect compression lift the time budget: on a loaded machine the 3 s default can run
 * out while the bundle loads, and the hook then (correctly) passes the original. The budget itself
 * is exercised by the stall test, with the defaults.
 */
const ROOMY = { budget_ms: 60_000, stdin_timeout_ms: 30_000 };

function settingsFile(box: Sandbox, settings: Record<string, unknown>): void {
  mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
  writeFileSync(join(box.env.HOME!, ".caveman", "hooks.json"), JSON.stringify(settings));
}

function roomy(): Sandbox {
  const box = sandbox();
  settingsFile(box, ROOMY);
  return box;
}

const handleOf = (text: string) => /recovery_handle \\?"(ccr_[0-9a-f]{32})/.exec(text)?.[1];

describe("caveman-mcp hook claude-code", () => {
  it("prints the Bash shape with the compressed log; the original retrieves byte-exact from another process", () => {
    const box = roomy();
    const log = logText();
    const r = hook(box, "claude-code", claudeBash("cat /var/log/app.log", log));
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith("\n")).toBe(true);
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput: { hookEventName: string; updatedToolOutput: Record<string, unknown> };
    };
    expect(out.hookSpecificOutput.hookEventName).toBe("PostToolUse");
    const updated = out.hookSpecificOutput.updatedToolOutput;
    expect(Object.keys(updated).sort()).toEqual(["interrupted", "stderr", "stdout"]);
    expect(updated.stdout as string).toContain("card_declined");
    expect((updated.stdout as string).length).toBeLessThan(log.length / 10);
    const handle = handleOf(updated.stdout as string);
    expect(handle).toBeDefined();
    const back = cli(box, ["retrieve", handle!]);
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(log);
    const part = cli(box, ["retrieve", handle!, "--query", "lines:1700-1702"]);
    expect(part.stdout).toContain("card_declined");
  });

  it("reads a persisted output from Claude Code's directory", () => {
    const box = roomy();
    const claudeDir = join(box.base, "claude");
    mkdirSync(join(claudeDir, "projects", "p", "tool-results"), { recursive: true });
    const log = logText(6000);
    const path = join(claudeDir, "projects", "p", "tool-results", "toolu_01.txt");
    writeFileSync(path, log);
    const r = hook(
      box,
      "claude-code",
      claudeBash("cat big.log", log.slice(0, 30_000), {
        persistedOutputPath: path,
        persistedOutputSize: log.length,
      }),
      {
        CLAUDE_CONFIG_DIR: claudeDir,
      },
    );
    const updated = JSON.parse(r.stdout).hookSpecificOutput.updatedToolOutput;
    expect(updated.persistedOutputPath).toBeUndefined();
    expect(cli(box, ["retrieve", handleOf(updated.stdout)!]).stdout).toBe(log);
  });

  it("Gemini: a tail call of read_file on a stand-in in Gemini's project temp dir that keeps the failure visible", () => {
    const box = roomy();
    const project = join(box.env.HOME!, ".gemini", "tmp", "root");
    const r = hook(
      box,
      "gemini",
      geminiShell("tail -n 3000 app.log", logText(), join(project, "chats", "s.jsonl")),
    );
    // Gemini CLI shows a hook's stderr to the user after every call: nothing there.
    expect(r.stderr).toBe("");
    const tail = JSON.parse(r.stdout).hookSpecificOutput.tailToolCallRequest;
    expect(tail.name).toBe("read_file");
    expect(tail.args.file_path.startsWith(join(project, "caveman"))).toBe(true);
    const standIn = readFileSync(tail.args.file_path, "utf8");
    expect(standIn).toContain("card_declined");
    expect(cli(box, ["retrieve", handleOf(standIn.split("\n")[0]!)!]).stdout).toBe(logText());
    // Without a transcript inside Gemini's temp dir, the original passes.
    expect(hook(box, "gemini", geminiShell("tail -n 3000 app.log", logText())).stdout).toBe("");
  });
});

describe("hook fault matrix: original passes, exit 0, nothing half-written", () => {
  const quiet = (r: { code: number | null; stdout: string }) => {
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
  };

  it.each([
    ["malformed stdin", '{"tool_name": "Bash", '],
    ["empty stdin", ""],
    ["not an object", "[1,2,3]"],
    ["invalid UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    [
      "unknown tool",
      JSON.stringify({
        hook_event_name: "PostToolUse",
        tool_name: "WebFetch",
        tool_response: { result: logText() },
      }),
    ],
    [
      "a retrieve's own output",
      JSON.stringify({
        tool_name: "mcp__caveman__caveman_retrieve",
        tool_response: [{ type: "text", text: logText() }],
      }),
    ],
    ["raw requested", claudeBash("cat app.log # caveman:raw", logText())],
  ])("%s", (_what, input) => {
    const box = sandbox();
    quiet(hook(box, "claude-code", input));
    expect(entries(box)).toBe(0);
  });

  it("store locked by another process", () => {
    const box = sandbox();
    cli(box, ["stats"]); // creates the database
    const db = openLocker(box.db);
    db.exec("BEGIN EXCLUSIVE");
    try {
      const r = hook(box, "claude-code", claudeBash("cat app.log", logText()));
      quiet(r);
      expect(r.stderr).toMatch(/passed \(store_busy|passed \(deadline/);
      expect(r.ms).toBeLessThan(10_000);
    } finally {
      db.exec("ROLLBACK");
      db.close();
    }
    expect(entries(box)).toBe(0);
  });

  it("store unusable (the database path is a directory)", () => {
    const box = roomy();
    mkdirSync(box.db, { recursive: true });
    const r = hook(box, "claude-code", claudeBash("cat app.log", logText()));
    quiet(r);
    expect(r.stderr).toMatch(/passed \(store_/);
  });

  it("huge output (over the input cap)", () => {
    const box = sandbox();
    const big = logText(330_000);
    expect(big.length).toBeGreaterThan(18 * 1024 * 1024);
    const r = hook(box, "claude-code", claudeBash("cat huge.log", big));
    quiet(r);
    expect(entries(box)).toBe(0);
  });

  it("a 2-second stall on stdin", async () => {
    const box = sandbox();
    const child = spawn(process.execPath, [CLI, "hook", "claude-code"], { env: box.env, cwd: box.root });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stdin.on("error", () => {});
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const input = claudeBash("cat app.log", logText(20_000));
    // More than a pipe holds: 'drain' then proves the hook is reading (on a loaded machine start-up
    // alone can outlast the stall, which the hook would then never see).
    const cut = 512 * 1024;
    if (!child.stdin.write(input.slice(0, cut))) await new Promise((r) => child.stdin.once("drain", r));
    let timer: NodeJS.Timeout | undefined;
    const stall = new Promise<void>((r) => {
      timer = setTimeout(r, 2000);
    });
    if ((await Promise.race([stall.then(() => "stalled"), exited.then(() => "exited")])) === "stalled")
      child.stdin.end(input.slice(cut));
    clearTimeout(timer);
    const code = await exited;
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(entries(box)).toBe(0);
  });

  it("a bad settings file, and the per-session off switch", () => {
    const box = sandbox();
    mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
    writeFileSync(join(box.env.HOME!, ".caveman", "hooks.json"), '{"floor": 3}');
    const bad = hook(box, "claude-code", claudeBash("cat app.log", logText()));
    quiet(bad);
    expect(bad.stderr).toMatch(/unknown key "floor"/);
    // The server and doctor still run; doctor names the problem.
    const doctor = cli(box, ["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/FAIL hook settings: .*unknown key "floor"/);
    // (doctor stored its own sample; the off switch stores nothing more.)
    const before = entries(box);
    settingsFile(box, { ...ROOMY, deny: ["Read"] });
    quiet(hook(box, "claude-code", claudeBash("cat app.log", logText()), { CAVEMAN_HOOK: "off" }));
    expect(entries(box)).toBe(before);
    expect(hook(box, "claude-code", claudeBash("cat app.log", logText())).stdout).not.toBe("");
  });
});
