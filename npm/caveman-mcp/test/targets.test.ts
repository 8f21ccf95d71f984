// The one-table rule: npm/platforms/*, the launcher's optionalDependencies and the changesets
// fixed group must all say exactly what src/targets.ts says. Fix with `pnpm sync-targets`.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EMULATION, manifestConstraints, packageName, TARGETS, targetById } from "../src/targets.js";

const here = dirname(fileURLToPath(import.meta.url));
const launcherDir = resolve(here, "..");
const platformsDir = resolve(launcherDir, "..", "platforms");
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, "utf8"));
const launcher = readJson(join(launcherDir, "package.json"));
const LIFECYCLE = ["preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare"];

describe("the targets table", () => {
  it("has unique ids and one target per os/cpu/libc", () => {
    const ids = TARGETS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const combos = TARGETS.map((t) => `${t.os}/${t.cpu}/${t.libc ?? "-"}`);
    expect(new Set(combos).size).toBe(combos.length);
    for (const t of TARGETS) {
      expect(t.id).toBe(
        `${t.os}-${t.cpu}${t.libc === undefined ? "" : t.libc === "glibc" ? "-gnu" : "-musl"}`,
      );
      expect(t.libc !== undefined).toBe(t.os === "linux");
    }
  });

  it("emulates only between targets it knows", () => {
    for (const [from, to] of Object.entries(EMULATION)) {
      expect(targetById(from), from).toBeDefined();
      expect(targetById(to), to).toBeDefined();
    }
  });

  it("matches npm/platforms/* exactly, one committed manifest per target", () => {
    const dirs = readdirSync(platformsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(dirs).toEqual(TARGETS.map((t) => t.id).sort());
    for (const target of TARGETS) {
      const manifest = readJson(join(platformsDir, target.id, "package.json"));
      expect(manifest.name).toBe(packageName(target));
      expect(manifest.version).toBe(launcher.version);
      const { os, cpu, libc } = manifest;
      expect({ os, cpu, ...(libc === undefined ? {} : { libc }) }).toEqual(manifestConstraints(target));
      expect(manifest.files).toEqual(["dist"]);
      expect(manifest.scripts, `${target.id} must not have scripts`).toBeUndefined();
      for (const field of [
        "dependencies",
        "optionalDependencies",
        "peerDependencies",
        "bundleDependencies",
      ]) {
        expect(manifest[field], `${target.id} ${field}`).toBeUndefined();
      }
    }
  });

  it("matches the launcher's optionalDependencies exactly", () => {
    const optional = launcher.optionalDependencies as Record<string, string>;
    expect(Object.keys(optional).sort()).toEqual(TARGETS.map(packageName).sort());
    // workspace:* becomes the exact shared version when pnpm packs the launcher.
    for (const range of Object.values(optional)) expect(range).toBe("workspace:*");
  });

  it("keeps the launcher free of runtime dependencies and install scripts", () => {
    expect(launcher.dependencies).toBeUndefined();
    expect(launcher.peerDependencies).toBeUndefined();
    const scripts = Object.keys((launcher.scripts as Record<string, string>) ?? {});
    for (const hook of LIFECYCLE) expect(scripts).not.toContain(hook);
    expect(launcher.bin).toEqual({ "caveman-mcp": "dist/cli.js" });
  });

  it("releases the launcher and every platform package in one changesets fixed group", () => {
    const config = readJson(resolve(launcherDir, "..", "..", ".changeset", "config.json"));
    const groups = config.fixed as string[][];
    const group = groups.find((g) => g.includes("caveman-mcp"));
    expect(group?.slice().sort()).toEqual(["caveman-mcp", ...TARGETS.map(packageName)].sort());
  });
});
