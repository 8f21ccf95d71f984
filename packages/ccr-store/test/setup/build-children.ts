// Vitest global setup: bundle test/children/*.ts (with the package source) into runnable .mjs
// files, so process tests run real child processes on the current source without depending on
// a prior `pnpm build`. The output sits under node_modules/ so that the child resolves the
// package's own better-sqlite3 and nothing lands in git or in dist/.
import { join } from "node:path";
import { build } from "tsup";

export const CHILD_DIR = join(
  import.meta.dirname,
  "..",
  "..",
  "node_modules",
  ".cache",
  "ccr-store-children",
);

export default async function setup(): Promise<void> {
  await build({
    config: false,
    entry: {
      worker: join(import.meta.dirname, "..", "children", "worker.ts"),
      team: join(import.meta.dirname, "..", "children", "team.ts"),
    },
    outDir: CHILD_DIR,
    format: ["esm"],
    outExtension: () => ({ js: ".mjs" }),
    platform: "node",
    target: "node20",
    external: ["better-sqlite3"],
    clean: true,
    dts: false,
    silent: true,
  });
}
