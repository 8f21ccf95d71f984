import { defineConfig } from "tsup";

// The package ships its bin alone (dist/cli.js, shebang kept, no runtime dependencies, one file).
// The repo's own scripts (build-server, sync-targets, bench) read the targets table and layout
// from a second build of src/index.ts in .cache/repo-lib/, which is outside `files` and never
// published. Only node: built-ins are imported.
export default defineConfig([
  {
    entry: ["src/cli.ts"],
    format: ["esm"],
    dts: false,
    splitting: false,
    clean: true,
    sourcemap: false,
    target: "node20",
    platform: "node",
  },
  {
    entry: ["src/index.ts"],
    outDir: ".cache/repo-lib",
    format: ["esm"],
    dts: false,
    clean: true,
    sourcemap: false,
    target: "node20",
    platform: "node",
  },
]);
