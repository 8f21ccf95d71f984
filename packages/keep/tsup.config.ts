import { base } from "@caveman/tsup-config";
import { defineConfig } from "tsup";

export default defineConfig({ ...base, entry: ["src/index.ts", "src/note.ts"] });
