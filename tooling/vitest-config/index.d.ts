import type { ViteUserConfig } from "vitest/config";

/** True under `pnpm test:full` (CAVEMAN_TEST_FULL=1): run the full cross products. */
export declare const FULL_SUITE: boolean;

/** The custom export condition every workspace package maps to its `src/` entry. */
export declare const SOURCE_CONDITION: "@caveman/source";

/**
 * `processes`: the suite's files spawn processes and share no state, so one file per core runs at
 * once (vitest's default on two cores is one file at a time).
 */
export function cavemanVitest(options?: {
  include?: string[];
  testTimeout?: number;
  processes?: boolean;
}): ViteUserConfig;
