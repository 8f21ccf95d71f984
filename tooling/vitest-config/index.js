// Shared vitest settings. Every package writes test-results.json beside itself so that
// .ci/run can print one plain "N passed, N failed" line for the whole workspace.
//
// Dev loop: workspace packages resolve to their TypeScript source through the `@caveman/source`
// export condition, so `pnpm --filter X test` runs against what you just changed in X's
// dependencies, never against a stale dist/. Consumers, tsup bundles and packed tarballs do not
// set the condition and keep resolving `import`/`types` to dist/.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * True under `pnpm test:full` (CAVEMAN_TEST_FULL=1; .ci/run runs it): the full cross products run
 * (every tool in every Inspector era, both Claude Code builds). `pnpm test`, the contributor's
 * loop, keeps one case per mode. Read here only, so every suite agrees on what "full" means.
 */
export const FULL_SUITE = process.env.CAVEMAN_TEST_FULL === "1";

/** The custom export condition every workspace package maps to its `src/` entry. */
export const SOURCE_CONDITION = "@caveman/source";

// Setting conditions replaces Vite's defaults instead of adding to them, so the defaults are
// restated here (Vite 8's DEFAULT_SERVER_CONDITIONS / DEFAULT_CLIENT_CONDITIONS, which vitest/config
// does not re-export). The name is namespaced because plain "source" is already used by
// third-party packages in this tree (gpt-tokenizer, eventsource) for files they do not ship.
const serverConditions = [SOURCE_CONDITION, "module", "node", "development|production"];
const clientConditions = [SOURCE_CONDITION, "module", "browser", "development|production"];

/**
 * Keeps the source condition in Vite's resolver only. Vitest also hands `ssr.resolve.conditions`
 * to the test process as `--conditions` flags, and worker threads inherit those: a worker script
 * from dist/ (mcp-server's engine worker) would then import a dependency's `src/index.ts` through
 * plain Node, which cannot load TypeScript. The `ssr` environment has already copied its
 * conditions when this hook runs, so dropping the condition from the top-level `ssr` options
 * changes only what Node is told.
 * @type {import("vitest/config").Plugin}
 */
const sourceForViteOnly = {
  name: "caveman-source-condition-vite-only",
  configResolved(config) {
    const conditions = config.ssr.resolve?.conditions;
    if (conditions && config.ssr.resolve)
      config.ssr.resolve.conditions = conditions.filter((c) => c !== SOURCE_CONDITION);
  },
};

/**
 * Workers for a suite of process tests (`processes: true`). Vitest's default is one fewer than the
 * cores, so one file at a time on a 2-core machine; but such a file mostly waits on the children
 * it spawns, so one file per core runs (more starved each other on a loaded machine). Each file
 * owns its temp dirs, ports and servers, so files share no state.
 */
const PROCESS_WORKERS = Math.max(2, availableParallelism());

/**
 * @param {{ include?: string[], testTimeout?: number, processes?: boolean }} [options]
 */
export function cavemanVitest(options = {}) {
  return defineConfig({
    plugins: [sourceForViteOnly],
    resolve: { conditions: clientConditions },
    ssr: { resolve: { conditions: serverConditions } },
    test: {
      include: options.include ?? ["src/**/*.test.ts", "test/**/*.test.ts"],
      environment: "node",
      // Hang detectors, not speed checks: a test that passes in 2 s at idle can take 20 times that
      // at a load of 20 on two cores, and must still pass there.
      testTimeout: options.testTimeout ?? 120_000,
      hookTimeout: 180_000,
      reporters: ["default", ["json", { outputFile: "test-results.json" }]],
      pool: "forks",
      ...(options.processes ? { maxWorkers: PROCESS_WORKERS } : {}),
    },
  });
}
