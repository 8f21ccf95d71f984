import { readFileSync } from "node:fs";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * gpt-tokenizer builds its o200k tables when its module is evaluated (~0.3 s idle, seconds under
 * load), and the engine imports it at the top. This stands in for the module the engine imports:
 * the same `countTokens`, whose first call evaluates the real module (bundled here, wrapped lazily
 * by esbuild because it is `require`d). So a server that starts, or a command that never counts,
 * builds no tables. A name the engine imports that this does not export fails the build.
 */
const lazyTokenizer: Plugin = {
  name: "caveman-lazy-tokenizer",
  setup(build) {
    build.onResolve({ filter: /^gpt-tokenizer$/ }, (args) =>
      args.namespace === "caveman-lazy" ? undefined : { path: "gpt-tokenizer", namespace: "caveman-lazy" },
    );
    build.onLoad({ filter: /.*/, namespace: "caveman-lazy" }, () => ({
      resolveDir: new URL(".", import.meta.url).pathname,
      loader: "js",
      contents: [
        "let real;",
        'const load = () => (real ??= require("gpt-tokenizer"));',
        "export function countTokens(text, options) {",
        "  return load().countTokens(text, options);",
        "}",
      ].join("\n"),
    }));
  },
};

// Workspace packages are inlined; better-sqlite3 stays external because its native loader uses
// dynamic require, which an ESM bundle cannot serve. Split: each command is a chunk that cli.js
// imports when it runs (src/cli.ts), so `--version` or a hook that passes loads a few hundred KB,
// not the engine, the tokenizer or the server. Chunks sit beside cli.js, as do the two worker
// scripts that `new URL("./…-worker.js", import.meta.url)` names.
export default defineConfig({
  entry: {
    cli: "src/cli.ts",
    "engine-worker": "src/engine-worker.ts",
    "hook-worker": "src/hook-worker.ts",
  },
  format: ["esm"],
  platform: "node",
  target: "node20",
  bundle: true,
  splitting: true,
  clean: true,
  sourcemap: false,
  dts: false,
  noExternal: [/^(?!better-sqlite3$)/],
  external: ["better-sqlite3"],
  esbuildPlugins: [lazyTokenizer],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cavemanCreateRequire } from 'node:module';\nconst require = __cavemanCreateRequire(import.meta.url);",
  },
  define: { __CAVEMAN_VERSION__: JSON.stringify(pkg.version) },
});
