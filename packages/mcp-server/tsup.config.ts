import { base } from "@caveman/tsup-config";
import { defineConfig } from "tsup";

export default defineConfig({
  ...base,
  // The worker script is its own entry: a worker thread starts from a file, not from an import.
  entry: { index: "src/index.ts", "engine-worker": "src/work/engine-worker.ts" },
});
