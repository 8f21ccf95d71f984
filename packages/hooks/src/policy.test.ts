import { describe, expect, it } from "vitest";
import { HookError } from "./errors.js";
import { hintForCommand, hintForPath, toolRefusal } from "./policy.js";
import { runHook } from "./run.js";
import { memoryContext } from "./samples.test-helpers.js";
import { DEFAULT_HOOK_SETTINGS, parseHookSettings } from "./settings.js";

describe("hints", () => {
  it.each([
    ["git diff HEAD~3", "git diff HEAD~3"],
    ["cd app && FOO=1 time pytest -q", "pytest -q"],
    ["cat /var/log/app.log", "log"],
    ["tail -n 500 server.log", "log"],
    ["cat data.json", "json"],
    ["pytest 2>&1 | tee out.txt", "pytest 2>&1"],
    ["npm test # caveman:raw", "npm test"],
    ["", undefined],
  ])("%s -> %s", async (cmd, hint) => {
    expect(hintForCommand(cmd)).toBe(hint);
  });

  it("maps data extensions only", async () => {
    expect(hintForPath("/a/b.jsonl")).toBe("ndjson");
    expect(hintForPath("/a/b.csv")).toBe("table");
    expect(hintForPath("/a/b.ts")).toBeUndefined();
  });

  it("deny wins over allow; wildcards match whole names", async () => {
    const s = { ...DEFAULT_HOOK_SETTINGS, allow: ["mcp__*", "Bash"], deny: ["mcp__secret__*"] };
    expect(toolRefusal("Bash", s)).toBeNull();
    expect(toolRefusal("mcp__logs__tail", s)).toBeNull();
    expect(toolRefusal("mcp__secret__get", s)).toBe("denied");
    expect(toolRefusal("Read", s)).toBe("not_allowed");
    expect(toolRefusal("BashX", s)).toBe("not_allowed");
  });
});

describe("settings", () => {
  it("parses the file's snake_case keys over the defaults", async () => {
    const s = parseHookSettings({ floor_tokens: 800, deny: ["Read"], enabled: false, budget_ms: 900 });
    expect(s).toMatchObject({
      floorTokens: 800,
      deny: ["Read"],
      enabled: false,
      budgetMs: 900,
      minGain: 0.2,
    });
  });

  it.each([
    [{ floor: 3 }, /unknown key "floor"/],
    [{ floor_tokens: -1 }, /floor_tokens/],
    [{ min_gain: 1 }, /min_gain/],
    [{ allow: "Bash" }, /allow/],
    [{ enabled: "no" }, /enabled/],
    [[], /JSON object/],
  ])("refuses %j", async (bad, msg) => {
    expect(() => parseHookSettings(bad)).toThrow(HookError);
    expect(() => parseHookSettings(bad)).toThrow(msg);
  });
});

describe("runHook", () => {
  const ctx = () => memoryContext();
  it("prints nothing for malformed stdin and one JSON line when it compresses", async () => {
    expect(await runHook("claude-code", "{not json", ctx())).toEqual({
      stdout: "",
      reason: "input_invalid",
      handles: [],
    });
    expect((await runHook("gemini", "", ctx())).stdout).toBe("");
    const log = Array.from({ length: 3000 }, (_, i) => `2026-01-01T00:00:00Z INFO req ${i} ok`).join("\n");
    const r = await runHook(
      "claude-code",
      JSON.stringify({
        tool_name: "Bash",
        tool_input: { command: "cat a.log" },
        tool_response: { stdout: log, stderr: "", interrupted: false },
      }),
      ctx(),
    );
    expect(r.reason).toBe("compressed");
    expect(r.stdout.endsWith("}\n")).toBe(true);
    expect(r.stdout.split("\n")).toHaveLength(2);
  });

  it("a fault inside an adapter is a pass, never a throw", async () => {
    const c = {
      ...ctx(),
      expired: () => {
        throw new Error("clock broke");
      },
    };
    const log = Array.from({ length: 3000 }, (_, i) => `INFO req ${i} ok`).join("\n");
    const r = await runHook(
      "claude-code",
      JSON.stringify({
        tool_name: "Bash",
        tool_input: { command: "x" },
        tool_response: { stdout: log, stderr: "" },
      }),
      c,
    );
    expect(r.stdout).toBe("");
    expect(r.reason).toMatch(/^internal_error/);
  });
});
