// Zero egress: parses every source file under packages/*/src and apps/*/src (tests excepted) with
// the TypeScript parser and fails on any import, re-export, require or dynamic import of a network
// or process-spawning module, and on any call of `fetch`. The npm launcher is exempt (it lives in
// npm/, which this scan does not cover) because spawning the platform binary is its job. Named
// files: the Redis backend of the CCR store (ALLOWED: its client, guarded sockets and link), and
// LIMITED to exactly the named imports: the MCP proxy's spawn of the server it wraps, the proxy's
// non-blocking stderr (a `net.Socket` on fd 2, no network), the binary's background sender (it
// spawns the binary itself, `caveman-mcp flush`), the install's run of `claude plugin …`, the
// Bash wrapper's run of the command it wraps (`caveman-mcp run`), and the hook service's unix
// socket (`hookService.ts` listens, `hookEntry.ts` and `hookSocket.ts` connect).
// The same scan proves one owner of the environment: only the binary's config module (and the
// modules it splits into under `config/`) reads `process.env`, calls `process.cwd()`, or looks up
// a variable by name (`env.CAVEMAN_…`, `env["XDG_CACHE_HOME"]`, a bare "CAVEMAN_…" string).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const WORKSPACE = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");
const BANNED = new Set(["net", "http", "https", "http2", "dgram", "tls", "child_process"]);
const REDIS_CLIENTS = new Set(["ioredis", "iovalkey", "redis", "@redis/client"]);
/** The only sources allowed to open connections: the Redis backend of the CCR store. */
const ALLOWED = ["client.ts", "connector.ts", "connection.ts"].map((f) =>
  join("packages", "ccr-store", "src", "redis", f),
);
const SOURCE = /\.(?:[cm]?ts|[cm]?js|tsx)$/;
/** Files allowed exactly these violations, and nothing else banned. */
const LIMITED: Record<string, readonly string[]> = {
  [join("packages", "mcp-server", "src", "proxy", "spawn.ts")]: ["import of node:child_process"],
  // `install claude-code` runs the host's own `claude plugin …` commands.
  [join("apps", "caveman-mcp", "src", "commands", "claudeCli.ts")]: ["import of node:child_process"],
  [join("packages", "mcp-server", "src", "proxy", "stderr.ts")]: ["import of node:net"],
  [join("apps", "caveman-mcp", "src", "queued.ts")]: ["import of node:child_process"],
  // `caveman-mcp run -- <cmd>` runs the command the PreToolUse hook wrapped.
  [join("apps", "caveman-mcp", "src", "commands", "run.ts")]: ["import of node:child_process"],
  // The warm path: the server's hook service and the hook that uses it, on a unix socket under
  // $CAVEMAN_HOME/run (no network).
  [join("apps", "caveman-mcp", "src", "hookService.ts")]: ["import of node:net"],
  [join("apps", "caveman-mcp", "src", "hookEntry.ts")]: ["import of node:net"],
  [join("apps", "caveman-mcp", "src", "hookSocket.ts")]: ["import of node:net"],
};

function banned(spec: string): boolean {
  return BANNED.has(spec.replace(/^node:/, "").split("/")[0]!) || REDIS_CLIENTS.has(spec);
}

/** Every violation in one file's text, as `line: what`. */
function violations(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (banned(node.moduleSpecifier.text))
        found.push(`${at(node)}: import of ${node.moduleSpecifier.text}`);
    }
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (ts.isStringLiteral(e) && banned(e.text)) found.push(`${at(node)}: import of ${e.text}`);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const arg = node.arguments[0];
      const isLoader =
        callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require");
      if (isLoader && arg && ts.isStringLiteralLike(arg) && banned(arg.text))
        found.push(`${at(node)}: load of ${arg.text}`);
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : "";
      if (name === "fetch") found.push(`${at(node)}: fetch( call`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !/\.test\.|\.test-helpers\./.test(name) && !name.endsWith(".d.ts"))
      out.push(path);
  }
  return out;
}

function workspaceSources(): string[] {
  const files: string[] = [];
  for (const group of ["packages", "apps"]) {
    const groupDir = join(WORKSPACE, group);
    for (const pkg of readdirSync(groupDir)) {
      const src = join(groupDir, pkg, "src");
      try {
        if (statSync(src).isDirectory()) files.push(...sourceFiles(src));
      } catch {
        // A package without src/ has nothing to scan.
      }
    }
  }
  return files;
}

describe("zero egress", () => {
  it("finds no network or process-spawning import and no fetch( call in any package or app source", () => {
    const all = workspaceSources();
    for (const allowed of ALLOWED) expect(all).toContain(join(WORKSPACE, allowed));
    const files = all.filter((f) => !ALLOWED.includes(relative(WORKSPACE, f)));
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.includes(join("apps", "caveman-mcp", "src")))).toBe(true);
    const report = files.flatMap((f) => {
      const allowed = LIMITED[relative(WORKSPACE, f)] ?? [];
      return violations(f, readFileSync(f, "utf8"))
        .filter((v) => !allowed.includes(v.replace(/^\d+: /, "")))
        .map((v) => `${relative(WORKSPACE, f)}:${v}`);
    });
    expect(report).toEqual([]);
    // The exception is real (the file exists and spawns), so a rename cannot leave it stale.
    for (const [file, what] of Object.entries(LIMITED)) {
      const found = violations(file, readFileSync(join(WORKSPACE, file), "utf8")).map((v) =>
        v.replace(/^\d+: /, ""),
      );
      expect(found).toEqual(what);
    }
  });

  it("catches every banned form (the scanner is not vacuous)", () => {
    const bad = [
      'import net from "node:net";',
      'import { request } from "https";',
      'export { spawn } from "child_process";',
      'const tls = require("tls");',
      'const d = await import("node:dgram");',
      'import h2 = require("http2");',
      "await fetch(url);",
      "await globalThis.fetch(url);",
      'import { Redis } from "ioredis";',
      'import { createClient } from "@redis/client";',
    ].join("\n");
    expect(violations("bad.ts", bad)).toHaveLength(10);
    expect(
      violations(
        "ok.ts",
        'import { readFileSync } from "node:fs";\nconst fetcher = 1; // fetch( in a comment',
      ),
    ).toEqual([]);
  });
});

/** The only sources allowed to read the environment: the binary's config and its parts. */
const ENV_OWNERS = [
  join("apps", "caveman-mcp", "src", "config.ts"),
  join("apps", "caveman-mcp", "src", "config"),
];
const VARIABLE =
  /^(?:CAVEMAN_[A-Z0-9_]+|XDG_[A-Z_]+|LOCALAPPDATA|APPDATA|HOME|USERPROFILE|CLAUDE_CONFIG_DIR)$/;

/** Every read of the environment in one file's text, as `line: what`. */
function envReads(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (
        ts.isIdentifier(node.expression) &&
        node.expression.text === "process" &&
        (name === "env" || name === "cwd")
      )
        found.push(`${at(node)}: process.${name}`);
      else if (VARIABLE.test(name)) found.push(`${at(node)}: .${name}`);
    }
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      const key = node.argumentExpression.text;
      if (VARIABLE.test(key) || (key === "env" && node.expression.getText(sf) === "process"))
        found.push(`${at(node)}: [${JSON.stringify(key)}]`);
    }
    if (
      ts.isStringLiteralLike(node) &&
      VARIABLE.test(node.text) &&
      !ts.isElementAccessExpression(node.parent)
    )
      found.push(`${at(node)}: "${node.text}"`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("one owner of the environment", () => {
  it("finds no environment read in any package or app source but the binary's config", () => {
    const files = workspaceSources();
    const owned = files.filter((f) => {
      const rel = relative(WORKSPACE, f);
      return rel === ENV_OWNERS[0] || rel.startsWith(`${ENV_OWNERS[1]}${sep}`);
    });
    expect(owned.length).toBeGreaterThanOrEqual(2);
    // The owner really reads the environment, so a rename cannot leave this test guarding nothing.
    expect(owned.flatMap((f) => envReads(f, readFileSync(f, "utf8"))).length).toBeGreaterThan(5);
    const report = files
      .filter((f) => !owned.includes(f))
      .flatMap((f) => envReads(f, readFileSync(f, "utf8")).map((v) => `${relative(WORKSPACE, f)}:${v}`));
    expect(report).toEqual([]);
  });

  it("catches every form of reading a variable (the scanner is not vacuous)", () => {
    const bad = [
      "const a = process.env;",
      "const b = process.cwd();",
      "const c = env.CAVEMAN_CCR_DB;",
      'const d = env["XDG_CACHE_HOME"];',
      'const e = lookup("CAVEMAN_CHIP_DIR");',
      "const f = opts.env.LOCALAPPDATA;",
    ].join("\n");
    expect(envReads("bad.ts", bad)).toHaveLength(6);
    expect(
      envReads("ok.ts", 'const help = "CAVEMAN_RAW=1 keeps one call raw";\nconst o = { CAVEMAN_HOME: dir };'),
    ).toEqual([]);
  });
});
