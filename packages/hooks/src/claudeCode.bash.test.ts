// The Claude Code PostToolUse hook on Bash output: what it shrinks, what it passes, and what it
// stores for recovery.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openMemoryStore, originalText } from "@caveman/ccr-store";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { claudeCodePostToolUse } from "./claudeCode.js";
import { bashEvent, handleIn, updated } from "./claudeCode.test-helpers.js";
import { bigDiff, bigLog, failingPytest, memoryContext, sourceCode } from "./samples.test-helpers.js";

const ctx = memoryContext;

describe("Claude Code PostToolUse: Bash", () => {
  it("replaces a large log with exactly {stdout, stderr, interrupted}, original stored byte-exact", async () => {
    const c = ctx();
    const log = bigLog();
    const out = await updated(claudeCodePostToolUse(bashEvent("cat /var/log/app.log", log), c));
    expect(Object.keys(out).sort()).toEqual(["interrupted", "stderr", "stdout"]);
    expect(out.interrupted).toBe(false);
    expect(out.stderr).toBe("");
    const stdout = out.stdout as string;
    expect(stdout.length).toBeLessThan(log.length / 3);
    expect(stdout).toContain("card_declined");
    const rec = c.ccr.get(handleIn(stdout));
    expect(rec && originalText(rec)).toBe(log);
  });

  it("keeps a failing test's assertion and location visible", async () => {
    const out = await updated(
      claudeCodePostToolUse(bashEvent("cd app && pytest -q", failingPytest()), ctx()),
    );
    const stdout = out.stdout as string;
    expect(stdout).toContain("E       assert 100 == 70");
    expect(stdout).toContain("tests/test_mod7.py:42: AssertionError");
    expect(stdout).toContain("1 failed, 239 passed");
  });

  it("keeps every file of a git diff in view, and says a folded change differs from the shown one in its numbers", async () => {
    const diff = bigDiff();
    const stdout = (await updated(claudeCodePostToolUse(bashEvent("git diff", diff), ctx())))
      .stdout as string;
    expect(stdout).toContain("+export const limit0 = 20;");
    for (let f = 0; f < 6; f++) expect(stdout).toContain(`diff --git a/src/mod${f}.ts b/src/mod${f}.ts`);
    // The other five files make the same edit with other digits: folded, and the marker says how
    // they differ rather than calling them the same change.
    expect(stdout).toMatch(/same change as line \d+ but for numbers/);
  });

  it("reads a persisted output from its confined path and drops persistedOutputPath", async () => {
    const dir = tempDir("hooks-persist-");
    const full = bigLog(4000);
    const path = join(dir, "toolu_1.txt");
    writeFileSync(path, full);
    const c = ctx({}, openMemoryStore(), [dir]);
    const ev = bashEvent("cat big.log", full.slice(0, 30_000), {
      persistedOutputPath: path,
      persistedOutputSize: full.length,
    });
    const out = await updated(claudeCodePostToolUse(ev, c));
    expect(Object.keys(out).sort()).toEqual(["interrupted", "stderr", "stdout"]);
    const rec = c.ccr.get(handleIn(out.stdout as string));
    expect(rec && originalText(rec)).toBe(full);
  });

  it("refuses a persisted path outside the allowed roots, through a symlink, or not matching the cut", async () => {
    const dir = tempDir("hooks-persist-");
    const other = tempDir("hooks-elsewhere-");
    const full = bigLog(4000);
    writeFileSync(join(other, "secret.txt"), full);
    symlinkSync(join(other, "secret.txt"), join(dir, "link.txt"));
    writeFileSync(join(dir, "different.txt"), bigLog(3000).replace("INFO", "WARN"));
    const c = ctx({}, openMemoryStore(), [dir]);
    const cut = full.slice(0, 30_000);
    for (const p of [
      join(other, "secret.txt"),
      join(dir, "link.txt"),
      join(dir, "different.txt"),
      "relative.txt",
      join(dir, "missing.txt"),
    ]) {
      expect(
        await claudeCodePostToolUse(bashEvent("cat big.log", cut, { persistedOutputPath: p }), c),
      ).toEqual({
        pass: "persisted_unreadable",
      });
    }
    mkdirSync(join(dir, "sub"));
    expect(
      await claudeCodePostToolUse(bashEvent("x", cut, { persistedOutputPath: join(dir, "sub") }), c),
    ).toEqual({
      pass: "persisted_unreadable",
    });
  });

  it("passes small output, raw requests, images and odd shapes", async () => {
    const c = ctx();
    expect(await claudeCodePostToolUse(bashEvent("ls", "a\nb\n"), c)).toEqual({ pass: "below_floor" });
    expect(await claudeCodePostToolUse(bashEvent("cat app.log # caveman:raw", bigLog()), c)).toEqual({
      pass: "raw_requested",
    });
    expect(await claudeCodePostToolUse(bashEvent("CAVEMAN_RAW=1 cat app.log", bigLog()), c)).toEqual({
      pass: "raw_requested",
    });
    expect(await claudeCodePostToolUse(bashEvent("cat a.png", bigLog(), { isImage: true }), c)).toEqual({
      pass: "unexpected_shape",
    });
    expect(
      await claudeCodePostToolUse({ tool_name: "Bash", tool_input: {}, tool_response: { stdout: 3 } }, c),
    ).toEqual({ pass: "unexpected_shape" });
    expect(c.ccr.stats().entries).toBe(0);
  });

  it("does not turn source code into an outline (the model needs the lines)", async () => {
    expect(await claudeCodePostToolUse(bashEvent("cat src/a.ts", sourceCode()), ctx())).toEqual({
      pass: "kind_code",
    });
  });
});
