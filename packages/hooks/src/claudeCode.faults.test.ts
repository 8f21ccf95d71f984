// The Claude Code PostToolUse hook on bad events and failing stores, and the checker of the output
// shapes Claude Code accepts.
import { openMemoryStore } from "@caveman/ccr-store";
import { describe, expect, it } from "vitest";
import { claudeCodePostToolUse } from "./claudeCode.js";
import { bashEvent, updated } from "./claudeCode.test-helpers.js";
import { bigLog, memoryContext } from "./samples.test-helpers.js";
import { claudeCodeShapeProblem } from "./shapes.js";
import type { HookContext } from "./shrink.js";

const ctx = memoryContext;

describe("faults", () => {
  it("a full store passes the original and stores nothing", async () => {
    const log = bigLog();
    const c = ctx({}, openMemoryStore({ budgetBytes: log.length + 1000 }));
    c.ccr.put("x".repeat(2000));
    expect(await claudeCodePostToolUse(bashEvent("cat app.log", log), c)).toEqual({ pass: "store_full" });
    expect(c.ccr.stats().entries).toBe(1);
  });

  it("a store that throws passes the original", async () => {
    const locked = openMemoryStore();
    locked.put = () => {
      throw new Error("locked");
    };
    const c: HookContext = ctx({}, locked);
    expect(await claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)).toEqual({
      pass: "store_failed",
    });
  });

  it("a passed deadline passes the original", async () => {
    const c = ctx({}, openMemoryStore(), [], () => true);
    expect(await claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)).toEqual({ pass: "deadline" });
  });

  it("an output over max_input_bytes passes", async () => {
    expect(
      await claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), ctx({ maxInputBytes: 2048 })),
    ).toEqual({
      pass: "too_large",
    });
  });

  it("a stand-in compressed again passes through (the host may run the hook twice)", async () => {
    const c = ctx();
    const once = (await updated(claudeCodePostToolUse(bashEvent("cat app.log", bigLog()), c)))
      .stdout as string;
    expect(await claudeCodePostToolUse(bashEvent("cat app.log", once), c)).toMatchObject({
      pass: expect.any(String),
    });
  });
});

describe("accepted shapes (the checker itself)", () => {
  it("refuses what Claude Code drops", async () => {
    expect(
      claudeCodeShapeProblem("Bash", {
        stdout: "",
        stderr: "",
        interrupted: false,
        persistedOutputPath: "/x",
      }),
    ).toMatch(/unexpected "persistedOutputPath"/);
    expect(claudeCodeShapeProblem("Bash", { stdout: "", stderr: "" })).toMatch(/missing "interrupted"/);
    expect(
      claudeCodeShapeProblem("Read", {
        type: "text",
        file: { filePath: "a", content: "", numLines: 1, startLine: 1 },
      }),
    ).toMatch(/totalLines/);
    expect(
      claudeCodeShapeProblem("Grep", { numFiles: 1, filenames: [], mode: "files_with_matches" }),
    ).toMatch(/mode/);
    expect(claudeCodeShapeProblem("mcp__a__b", { content: [] })).toMatch(/MCP/);
    expect(claudeCodeShapeProblem("WebFetch", {})).toMatch(/no known/);
  });
});
