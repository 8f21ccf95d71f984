// The Claude Code binary that `pnpm install` put here is the pinned one and runs as is.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLAUDE_PACKAGE, findClaude, skipReason } from "./claude.js";

const pinned = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    optionalDependencies: Record<string, string>;
  }
).optionalDependencies[CLAUDE_PACKAGE];

describe.skipIf(skipReason() !== undefined)("the pinned Claude Code binary", () => {
  it("is installed by pnpm and reports the pinned version", () => {
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
