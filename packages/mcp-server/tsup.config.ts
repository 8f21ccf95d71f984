import { defineConfig } from "tsup";

export default defineConfig({
  // The worker script is its own entry: a worker thread starts from a file, not from an import.
  entry: { index: "src/index.ts", "engine-worker": "src/work/engine-worker.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
