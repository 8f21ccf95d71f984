// Shared vitest settings. Every package writes test-results.json beside itself so that
// .ci/run can print one plain "N passed, N failed" line for the whole workspace.
import { defineConfig } from "vitest/config";

/**
 * @param {{ include?: string[], testTimeout?: number }} [options]
 */
export function cavemanVitest(options = {}) {
  return defineConfig({
    test: {
      include: options.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
      environment: "node",
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      reporters: ["default", ["json", { outputFile: "test-results.json" }]],
      pool: "forks",
    },
  });
}
