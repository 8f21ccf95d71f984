import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { findPackageDir, gatherHost, gatherInput, gatherLibcEvidence } from "./host.js";
import { detectLibc } from "./libc.js";

function pkg(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "0.1.0" }));
  return realpathSync(dir);
}

describe("findPackageDir", () => {
  it("finds a package hoisted beside the launcher (npm layout)", () => {
    const root = tempDir("cm-find-");
    const launcher = pkg(join(root, "node_modules", "caveman-mcp"), "caveman-mcp");
    const platform = pkg(
      join(root, "node_modules", "@caveman-mcp", "linux-x64-gnu"),
      "@caveman-mcp/linux-x64-gnu",
    );
    expect(findPackageDir(launcher, "@caveman-mcp/linux-x64-gnu")).toBe(platform);
  });

  it("prefers a nested copy under the launcher's own node_modules", () => {
    const root = tempDir("cm-find-");
    const launcher = pkg(join(root, "node_modules", "caveman-mcp"), "caveman-mcp");
    pkg(join(root, "node_modules", "@caveman-mcp", "x"), "@caveman-mcp/x");
    const nested = pkg(join(launcher, "node_modules", "@caveman-mcp", "x"), "@caveman-mcp/x");
    expect(findPackageDir(launcher, "@caveman-mcp/x")).toBe(nested);
  });

  it("finds siblings in pnpm's virtual store through symlinks", () => {
    const root = tempDir("cm-find-");
    const store = join(root, "node_modules", ".pnpm", "caveman-mcp@0.1.0", "node_modules");
    const launcher = pkg(join(store, "caveman-mcp"), "caveman-mcp");
    const real = pkg(
      join(root, "node_modules", ".pnpm", "p@0.1.0", "node_modules", "@caveman-mcp", "p"),
      "p",
    );
    mkdirSync(join(store, "@caveman-mcp"));
    symlinkSync(real, join(store, "@caveman-mcp", "p"));
    expect(findPackageDir(launcher, "@caveman-mcp/p")).toBe(real);
  });

  it("ignores NODE_PATH and anything not on the walk up from the launcher", () => {
    const elsewhere = tempDir("cm-find-");
    pkg(join(elsewhere, "@caveman-mcp", "linux-x64-gnu"), "@caveman-mcp/linux-x64-gnu");
    const root = tempDir("cm-find-");
    const launcher = pkg(join(root, "node_modules", "caveman-mcp"), "caveman-mcp");
    const saved = process.env.NODE_PATH;
    process.env.NODE_PATH = elsewhere;
    try {
      expect(findPackageDir(launcher, "@caveman-mcp/linux-x64-gnu")).toBeNull();
    } finally {
      process.env.NODE_PATH = saved;
    }
  });

  it("treats a directory without package.json as not installed", () => {
    const root = tempDir("cm-find-");
    mkdirSync(join(root, "node_modules", "@caveman-mcp", "half"), { recursive: true });
    expect(findPackageDir(root, "@caveman-mcp/half")).toBeNull();
  });
});

describe("gatherLibcEvidence", () => {
  it("reads all of a musl ldd, whose only mention of musl lies far past its start", () => {
    const root = tempDir("cm-libc-");
    // The shape of Alpine's /usr/bin/ldd: the ~700 KB musl loader, "musl" near its end.
    const loader = Buffer.alloc(700_000, 0);
    loader.write("\x7fELF", 0, "latin1");
    loader.write("musl libc (x86_64)", 688_152, "latin1");
    writeFileSync(join(root, "ldd"), loader);
    mkdirSync(join(root, "lib"));
    const evidence = gatherLibcEvidence({ ldd: join(root, "ldd"), lib: join(root, "lib") }, "linux");
    expect(evidence.lddText?.length).toBe(700_000);
    expect(detectLibc({ lddText: evidence.lddText }).libc).toBe("musl");
  });

  it("never blocks on an ldd that is a FIFO, and reads nothing from a directory", () => {
    const root = tempDir("cm-libc-");
    execFileSync("mkfifo", [join(root, "ldd")]);
    const fifo = gatherLibcEvidence({ ldd: join(root, "ldd"), lib: join(root, "nope") }, "linux");
    expect(fifo.lddText).toBeUndefined();
    expect(fifo.libEntries).toEqual([]);
    const dir = gatherLibcEvidence({ ldd: root, lib: root }, "linux");
    expect(dir.lddText).toBeUndefined();
  });

  it("gathers nothing off Linux", () => {
    expect(gatherLibcEvidence({ ldd: "/usr/bin/ldd", lib: "/lib" }, "darwin")).toEqual({});
  });
});

describe("gatherInput", () => {
  it("reads only the override variable from the environment it is given", () => {
    const root = tempDir("cm-gather-");
    const launcher = pkg(join(root, "node_modules", "caveman-mcp"), "caveman-mcp");
    const input = gatherInput(join(launcher, "dist", "cli.js"), { CAVEMAN_MCP_BINARY: "/x" });
    expect(input.override).toBe("/x");
    expect(input.portableServer).toBeNull();
    expect(input.host).toEqual(gatherHost());
    expect(input.siblingPackages()).toEqual([]);
    expect(input.ordinarySqlite()).toEqual({
      ok: false,
      reason: "not installed where the launcher can see it",
    });
  });

  it("lists every platform package beside the launcher, of any OS", () => {
    const root = tempDir("cm-gather-");
    const launcher = pkg(join(root, "node_modules", "caveman-mcp"), "caveman-mcp");
    pkg(join(root, "node_modules", "@caveman-mcp", "darwin-arm64"), "@caveman-mcp/darwin-arm64");
    pkg(join(root, "node_modules", "@caveman-mcp", "win32-x64"), "@caveman-mcp/win32-x64");
    const input = gatherInput(join(launcher, "dist", "cli.js"), {});
    expect(input.siblingPackages().sort()).toEqual(["@caveman-mcp/darwin-arm64", "@caveman-mcp/win32-x64"]);
  });
});

describe("the ordinary better-sqlite3 probe", () => {
  const appDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "apps", "caveman-mcp");
  const real = findPackageDir(appDir, "better-sqlite3");

  function launcherWith(buildInfo: object | null): { root: string; cli: string } {
    const root = tempDir("cm-sqlite-");
    const launcher = pkg(join(root, "node_modules", "caveman-mcp"), "caveman-mcp");
    mkdirSync(join(launcher, "dist", "portable"), { recursive: true });
    if (buildInfo !== null)
      writeFileSync(join(launcher, "dist", "portable", "build.json"), JSON.stringify(buildInfo));
    return { root, cli: join(launcher, "dist", "cli.js") };
  }

  it("accepts a real better-sqlite3 of the same major version that loads in this Node", () => {
    expect(real).not.toBeNull();
    const { root, cli } = launcherWith({ betterSqlite3: "12.0.0" });
    symlinkSync(real as string, join(root, "node_modules", "better-sqlite3"));
    const found = gatherInput(cli, {}).ordinarySqlite();
    expect(found).toEqual({
      ok: true,
      binding: join(real as string, "build", "Release", "better_sqlite3.node"),
      from: real,
    });
  });

  it("refuses another major version, whose JavaScript and binding may not match", () => {
    const { root, cli } = launcherWith({ betterSqlite3: "12.11.1" });
    pkg(join(root, "node_modules", "better-sqlite3"), "better-sqlite3");
    writeFileSync(join(root, "node_modules", "better-sqlite3", "package.json"), '{"version":"9.6.0"}');
    const found = gatherInput(cli, {}).ordinarySqlite();
    expect(found.ok === false && found.reason).toMatch(/is version 9\.6\.0, the server needs 12\.11\.1/);
  });

  it("refuses a binding that does not load, checked in a child process", () => {
    const { root, cli } = launcherWith(null);
    const dir = pkg(join(root, "node_modules", "better-sqlite3"), "better-sqlite3");
    mkdirSync(join(dir, "build", "Release"), { recursive: true });
    writeFileSync(join(dir, "build", "Release", "better_sqlite3.node"), "this is not a shared object");
    writeFileSync(join(dir, "index.js"), "module.exports = require('./build/Release/better_sqlite3.node');");
    const found = gatherInput(cli, {}).ordinarySqlite();
    expect(found.ok === false && found.reason).toContain("does not load");
  });

  it("refuses a package that was never built", () => {
    const { root, cli } = launcherWith(null);
    pkg(join(root, "node_modules", "better-sqlite3"), "better-sqlite3");
    const found = gatherInput(cli, {}).ordinarySqlite();
    expect(found.ok === false && found.reason).toContain("has no built binding");
  });
});
