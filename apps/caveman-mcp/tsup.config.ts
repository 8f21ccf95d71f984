import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { base } from "@caveman/tsup-config";
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

/**
 * The MCP SDK's Server builds an Ajv instance (with its formats) when it is constructed, though
 * only an elicitation's answer is ever validated with it, and this server elicits nothing. This
 * stands in for the module that holds it: the same `AjvJsonSchemaValidator`, which evaluates the
 * real module (bundled here, wrapped lazily by esbuild because it is `require`d) and builds its
 * Ajv at the first `getValidator`. So starting the server evaluates neither Ajv nor its formats.
 */
const lazyAjv: Plugin = {
  name: "caveman-lazy-ajv",
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, async (args) => {
      if (args.namespace === "caveman-lazy-ajv") return undefined;
      const real = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        namespace: "caveman-lazy-ajv",
      });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: "caveman-lazy-ajv" };
    });
    build.onLoad({ filter: /.*/, namespace: "caveman-lazy-ajv" }, (args) => ({
      resolveDir: new URL(".", import.meta.url).pathname,
      loader: "js",
      contents: [
        "let real;",
        `const load = () => (real ??= require(${JSON.stringify(args.path)}));`,
        "export class AjvJsonSchemaValidator {",
        "  #ajv;",
        "  #real;",
        "  constructor(ajv) {",
        "    this.#ajv = ajv;",
        "  }",
        "  getValidator(schema) {",
        "    this.#real ??= new (load().AjvJsonSchemaValidator)(this.#ajv);",
        "    return this.#real.getValidator(schema);",
        "  }",
        "}",
      ].join("\n"),
    }));
  },
};

/** The engine's built entry: the real module behind the stand-in below (its own `dist/engine.js`). */
const ENGINE_ENTRY = fileURLToPath(new URL("../../packages/engine/dist/index.js", import.meta.url));

/**
 * The engine (with the tokenizer's code and tables, most of the bundle's bytes) is its own entry,
 * dist/engine.js, and every `@caveman/engine` import resolves to this stand-in: each function
 * loads dist/engine.js on its first call, synchronously (`require` of an ES module, Node 20.19+
 * and 22.12+), and number or string constants are copied in at build time. So a server that
 * starts and lists its tools, or a hook that passes, never reads or compiles the engine. The path
 * is computed, not a literal, so that a later re-bundle (the platform packages, the .mcpb) keeps
 * the call instead of inlining the engine again; those builds ship engine.js beside the entry.
 * A class or object export cannot be stood in for: importing one fails the build (no such export).
 */
async function lazyEngine(): Promise<Plugin> {
  const real = (await import(ENGINE_ENTRY)) as Record<string, unknown>;
  const lines = [
    'import { fileURLToPath as __cavemanEnginePath } from "node:url";',
    "let real;",
    'const load = () => (real ??= require(__cavemanEnginePath(new URL("./engine.js", import.meta.url))));',
  ];
  for (const [name, value] of Object.entries(real)) {
    if (typeof value === "function" && !/^class\b/.test(Function.prototype.toString.call(value))) {
      lines.push(`export function ${name}(...args) {`, `  return load().${name}(...args);`, "}");
    } else if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
      lines.push(`export const ${name} = ${JSON.stringify(value)};`);
    }
  }
  return {
    name: "caveman-lazy-engine",
    setup(build) {
      build.onResolve({ filter: /^@caveman\/engine$/ }, () => ({
        path: "@caveman/engine",
        namespace: "caveman-lazy-engine",
      }));
      build.onLoad({ filter: /.*/, namespace: "caveman-lazy-engine" }, () => ({
        resolveDir: new URL(".", import.meta.url).pathname,
        loader: "js",
        contents: lines.join("\n"),
      }));
    },
  };
}

// Workspace packages are inlined; better-sqlite3 stays external because its native loader uses
// dynamic require, which an ESM bundle cannot serve. Split: each command is a chunk that cli.js
// imports when it runs (src/cli.ts), so `--version` or a hook that passes loads a few hundred KB,
// not the engine, the tokenizer or the server. Chunks sit beside cli.js, as do the two worker
// scripts that `new URL("./…-worker.js", import.meta.url)` names.
export default defineConfig(async () => ({
  entry: {
    cli: "src/cli.ts",
    engine: ENGINE_ENTRY,
    "engine-worker": "src/engine-worker.ts",
    "hook-worker": "src/hook-worker.ts",
  },
  ...base,
  // A binary, not a library: no declarations; no source maps in what users install.
  dts: false,
  sourcemap: false,
  platform: "node",
  bundle: true,
  splitting: true,
  noExternal: [/^(?!better-sqlite3$)/],
  external: ["better-sqlite3"],
  esbuildPlugins: [lazyTokenizer, lazyAjv, await lazyEngine()],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cavemanCreateRequire } from 'node:module';\nconst require = __cavemanCreateRequire(import.meta.url);",
  },
  define: { __CAVEMAN_VERSION__: JSON.stringify(pkg.version) },
}));
