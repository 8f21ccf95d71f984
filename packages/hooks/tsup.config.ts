import { defineConfig } from "tsup";

export default defineConfig({
  // gate is its own entry: the hook loads it before anything else (it imports nothing heavy).
  entry: ["src/index.ts", "src/gate.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
