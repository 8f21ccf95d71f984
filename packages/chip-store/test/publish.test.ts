// The package is published: the tarball `pnpm pack` makes must name only files it ships. The
// workspace-only source condition points at src/, which is not in `files`, so the published
// manifest must not carry it.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@caveman/test-kit";
import { beforeAll, expect, it } from "vitest";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
    shell: process.platform === "win32",
  });
  if (r.error) throw r.error;
  expect(r.status, `${cmd} ${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** Every string target under an `exports` value, however deeply conditions nest. */
function targets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(targets);
}

let manifest: { exports: unknown; files?: string[] };
let shipped: Set<string>;

beforeAll(() => {
  const dest = tempDir("chip-store-pack-");
  run("pnpm", ["pack", "--pack-destination", dest], pkgDir);
  const tarball = readdirSync(dest).find((f) => f.endsWith(".tgz"));
  expect(tarball).toBeDefined();
  const file = join(dest, tarball as string);
  shipped = new Set(
    run("tar", ["-tzf", file], dest)
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => l.replace(/^package\//, "./")),
  );
  manifest = JSON.parse(run("tar", ["-xzOf", file, "package/package.json"], dest));
}, 180_000);

it("ships every file its published exports name", () => {
  const named = targets(manifest.exports);
  expect(named.length).toBeGreaterThan(0);
  for (const target of named) expect(shipped.has(target), `${target} is not in the tarball`).toBe(true);
});

it("publishes no workspace-only source condition", () => {
  expect(JSON.stringify(manifest.exports)).not.toContain("@caveman/source");
  expect([...shipped].filter((f) => f.startsWith("./src/"))).toEqual([]);
});
