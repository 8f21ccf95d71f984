// The Claude Code binary that `pnpm install` put here for this project's build (pinned or newest)
// is the version package.json names, and runs as is.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { claudeVersion, currentBuild, findClaude, skipReason } from "./claude.js";

const pinned = claudeVersion(currentBuild());

describe.skipIf(skipReason() !== undefined)(`the ${currentBuild()} Claude Code binary`, () => {
  it("is installed by pnpm and reports the version package.json names", () => {
    const found = findClaude();
    if (!("path" in found)) throw new Error(found.missing);
    const out = execFileSync(found.path, ["--version"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent", DISABLE_AUTOUPDATER: "1" },
      timeout: 30_000,
    });
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(out.trim()).toBe(`${pinned} (Claude Code)`);
  });
});
