import { defineConfig } from "tsup";

// Two entries: the bin (dist/cli.js, shebang kept, no runtime dependencies) and the public
// API for tools and tests (dist/index.js). Only node: built-ins are imported.
export default defineConfig({
  entry: ["src/index.ts", "src/cli.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: false,
  target: "node20",
  platform: "node",
});
