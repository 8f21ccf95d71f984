import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

// One ESM file with every workspace package inlined; better-sqlite3 stays external because its
// native loader uses dynamic require, which an ESM bundle cannot serve.
export default defineConfig({
  // The engine worker is a second file: serve.ts starts it from `./engine-worker.js` beside cli.js.
  entry: { cli: "src/cli.ts", "engine-worker": "src/engine-worker.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  bundle: true,
  splitting: false,
  clean: true,
  sourcemap: false,
  dts: false,
  noExternal: [/^(?!better-sqlite3$)/],
  external: ["better-sqlite3"],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cavemanCreateRequire } from 'node:module';\nconst require = __cavemanCreateRequire(import.meta.url);",
  },
  define: { __CAVEMAN_VERSION__: JSON.stringify(pkg.version) },
});
