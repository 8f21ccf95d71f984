import { base } from "@caveman/tsup-config";
import { defineConfig } from "tsup";

// gate is its own entry: the hook loads it before anything else (it imports nothing heavy).
export default defineConfig({ ...base, entry: ["src/index.ts", "src/gate.ts"] });
