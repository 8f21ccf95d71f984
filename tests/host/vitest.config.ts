import { cavemanVitest, FULL_SUITE } from "@caveman/vitest-config";
import { mergeConfig } from "vitest/config";
import { CLAUDE_BUILD_ENV, claudeVersion, selectedBuilds } from "./test/claude.js";

// Every host test runs once per selected Claude Code build, in a project named after its version,
// so each result line says which CLI it ran on. One Claude Code run drives many tool calls; a run
// takes seconds, not minutes.
const builds = selectedBuilds(FULL_SUITE);
// Said once per run: vitest loads this file again in its workers, which inherit the mark.
if (process.env.CAVEMAN_HOST_TIER_SAID !== "1") {
  process.env.CAVEMAN_HOST_TIER_SAID = "1";
  process.stderr.write(
    `host tier: Claude Code ${builds.map((b) => `${claudeVersion(b)} (${b})`).join(" and ")}\n`,
  );
}
export default mergeConfig(
  cavemanVitest({ include: ["test/**/*.test.ts"], testTimeout: 240_000, processes: true }),
  {
    test: {
      projects: builds.map((build) => ({
        extends: true,
        test: { name: `claude ${claudeVersion(build)}`, env: { [CLAUDE_BUILD_ENV]: build } },
      })),
    },
  },
);
