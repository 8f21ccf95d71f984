/**
 * True under `pnpm test:full` (CAVEMAN_TEST_FULL=1, which .ci/run sets): the full cross products
 * run. `pnpm test`, the contributor's loop, keeps one case per mode. Read here only, so every
 * suite agrees on what "full" means.
 */
export const FULL_SUITE = process.env.CAVEMAN_TEST_FULL === "1";
