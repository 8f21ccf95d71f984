import type { ViteUserConfig } from "vitest/config";

/** The custom export condition every workspace package maps to its `src/` entry. */
export declare const SOURCE_CONDITION: "@caveman/source";

export function cavemanVitest(options?: { include?: string[]; testTimeout?: number }): ViteUserConfig;
