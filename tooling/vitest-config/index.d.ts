import type { ViteUserConfig } from "vitest/config";

export function cavemanVitest(options?: { include?: string[]; testTimeout?: number }): ViteUserConfig;
