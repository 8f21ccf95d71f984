import { base } from "@caveman/tsup-config";
import { defineConfig } from "tsup";

// The package ships its bin alone (dist/cli.js, shebang kept, no runtime dependencies, one file):
// no declarations, no source maps, no chunks. The repo's own scripts (build-server, sync-targets,
// bench) read the targets table and layout from a second build of src/index.ts in
// .cache/repo-lib/, which is outside `files` and never published. Only node: built-ins are imported.
const bin = { ...base, dts: false, sourcemap: false, platform: "node" } as const;

export default defineConfig([
  { ...bin, entry: ["src/cli.ts"], splitting: false },
  { ...bin, entry: ["src/index.ts"], outDir: ".cache/repo-lib" },
]);
