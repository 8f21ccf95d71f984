import type { ViteUserConfig } from "vitest/config";

/** True under `pnpm test:full` (CAVEMAN_TEST_FULL=1): run the full cross products. */
export declare const FULL_SUITE: boolean;

/** The custom export condition every workspace package maps to its `src/` entry. */
export declare const SOURCE_CONDITION: "@caveman/source";

export function cavemanVitest(options?: { include?: string[]; testTimeout?: number }): ViteUserConfig;
