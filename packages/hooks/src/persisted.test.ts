// Finding 9: the persisted-output reader reads only a regular file of ours under the host's own
// folder, whatever is swapped in while it walks there.
import { execFileSync, spawn } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { claudeCodePostToolUse } from "./claudeCode.js";
import { readConfined, readPersisted } from "./persisted.js";
import { bigLog, memoryContext } from "./samples.test-helpers.js";

describe("readConfined", () => {
  it("reads a regular file under a root, given through the root's own spelling", () => {
    const base = tempDir("confined-");
    const root = join(base, "projects");
    mkdirSync(join(root, "p", "s", "tool-results"), { recursive: true });
    writeFileSync(join(root, "p", "s", "tool-results", "t.txt"), "whole output\n");
    symlinkSync(root, join(base, "alias"));
    for (const r of [root, join(base, "alias")]) {
      const path = join(r, "p", "s", "tool-results", "t.txt");
      expect(readPersisted(path, [r], 1 << 20)).toBe("whole output\n");
    }
  });

  it("refuses what is not a regular file of ours under a root, without reading it", () => {
    const base = tempDir("confined-");
    const root = join(base, "projects");
    const outside = join(base, "outside");
    mkdirSync(join(root, "p"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(join(outside, "secret.txt"), join(root, "p", "link.txt"));
    symlinkSync(outside, join(root, "dirlink"));
    linkSync(join(outside, "secret.txt"), join(root, "p", "hard.txt"));
    execFileSync("mkfifo", [join(root, "p", "fifo")]);
    writeFileSync(join(root, "p", "big.txt"), "x".repeat(2000));
    const cases: Array<[string, string]> = [
      ["relative/t.txt", "not_absolute"],
      [join(outside, "secret.txt"), "outside_roots"],
      [join(root, "p", "..", "..", "outside", "secret.txt"), "outside_roots"],
      [join(root, "p", "link.txt"), "symlink"],
      [join(root, "dirlink", "secret.txt"), "symlink"],
      [join(root, "p", "hard.txt"), "not_ours"],
      [join(root, "p", "fifo"), "not_regular_file"],
      [join(root, "p"), "not_regular_file"],
      [join(root, "p", "big.txt"), "too_large"],
      [join(root, "p", "missing.txt"), "not_found"],
      [join(tmpdir(), "anything.txt"), "outside_roots"],
    ];
    for (const [path, reason] of cases)
      expect(readConfined(path, [root], 1000), path).toEqual({ refused: reason });
  });

  it("never returns the outside file while a directory of the path is swapped for a symlink", async () => {
    const base = tempDir("confined-race-");
    const root = join(base, "projects");
    const results = join(root, "p", "tool-results");
    mkdirSync(results, { recursive: true });
    mkdirSync(join(base, "outside", "tool-results"), { recursive: true });
    writeFileSync(join(results, "out.txt"), "inside\n");
    writeFileSync(join(base, "outside", "tool-results", "out.txt"), "OUTSIDE\n");
    symlinkSync(join(base, "outside", "tool-results"), join(root, "p", "swap"));
    // The racer swaps the real directory and the symlink under the same name, each step atomic.
    const racer = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs"); const [d, s, k] = process.argv.slice(1);
         for (;;) { fs.renameSync(d, k); fs.renameSync(s, d); fs.renameSync(d, s); fs.renameSync(k, d); }`,
        results,
        join(root, "p", "swap"),
        join(root, "p", "kept"),
      ],
      { stdio: "ignore" },
    );
    try {
      await new Promise((r) => setTimeout(r, 100));
      let inside = 0;
      let outsideReads = 0;
      const path = join(results, "out.txt");
      for (let i = 0; i < 20_000; i++) {
        const text = readPersisted(path, [root], 1 << 20);
        if (text === "inside\n") inside += 1;
        else if (text !== null) outsideReads += 1;
      }
      expect(outsideReads).toBe(0);
      expect(inside).toBeGreaterThan(0);
    } finally {
      racer.kill("SIGKILL");
    }
  });
});

describe("the Bash adapter's persisted output", () => {
  it("is not taken on an empty cut: an empty stdout proves no file is the same output", async () => {
    const root = tempDir("confined-cut-");
    const path = join(root, "any.txt");
    writeFileSync(path, bigLog(4000));
    const event = {
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "true" },
      tool_response: {
        stdout: "",
        stderr: "",
        interrupted: false,
        isImage: false,
        persistedOutputPath: path,
      },
    };
    expect(await claudeCodePostToolUse(event, memoryContext({}, undefined, [root]))).toEqual({
      pass: "persisted_unreadable",
    });
  });
});
