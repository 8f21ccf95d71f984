// A `--import` tracer for process tests: every file a process (and its workers) loads, written
// to $TRACE_FILE, so a test can say what a command did not load.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tempDir } from "@caveman/test-kit";

/**
 * A `--import` module that appends every file the process (and its workers) load to $TRACE_FILE:
 * through the loader's hooks for `import`, and through `Module._load` for `require`, which is
 * how the engine is loaded (an ES module `require`d, tsup.config.ts) and which the hooks miss.
 */
export function tracer(): string {
  const dir = tempDir("caveman-trace-");
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    'import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  appendFileSync(process.env.TRACE_FILE, url + "\\n");\n  return next(url, context);\n}\n',
  );
  const entry = join(dir, "trace.mjs");
  writeFileSync(
    entry,
    [
      'import { appendFileSync } from "node:fs";',
      'import Module, { register } from "node:module";',
      'import { pathToFileURL } from "node:url";',
      `register(${JSON.stringify(pathToFileURL(hooks).href)});`,
      "const load = Module._load;",
      "Module._load = function (request, parent, isMain) {",
      "  try {",
      "    const file = Module._resolveFilename(request, parent, isMain);",
      '    if (file.startsWith("/")) appendFileSync(process.env.TRACE_FILE, pathToFileURL(file).href + "\\n");',
      "  } catch {}",
      "  return load.apply(this, arguments);",
      "};",
      "",
    ].join("\n"),
  );
  return entry;
}

/** The files a traced process has loaded so far, from its trace file. */
export function loadedFiles(trace: string): string[] {
  return readFileSync(trace, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"))
    .map((u) => fileURLToPath(u));
}
