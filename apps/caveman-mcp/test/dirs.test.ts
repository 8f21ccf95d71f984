// The binary never changes a directory it did not create: an existing --chip-dir keeps its mode,
// and an unsafe one (world-writable without the sticky bit) stops the binary with the fix
// (exit 2) instead of being chmod'ed. Directories it creates are 0700.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";

const modeOf = (p: string) => statSync(p).mode & 0o7777;

function run(box: Sandbox, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: box.env, cwd: box.root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("chip directory given by the user", () => {
  it("keeps the mode of an existing shared directory (1777)", () => {
    const box = sandbox();
    const shared = join(box.base, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const r = run(box, ["--chip-dir", shared, "chips", "list"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(modeOf(shared)).toBe(0o1777);
  });

  it("refuses a world-writable directory without the sticky bit, leaves it as it was, says how to fix it", () => {
    const box = sandbox();
    const open = join(box.base, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const r = run(box, ["--chip-dir", open, "chips", "list"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`chmod o-w ${open}`);
    expect(modeOf(open)).toBe(0o777);
  });

  it("creates a missing chip directory and its undo journal 0700", () => {
    const box = sandbox();
    const fresh = join(box.base, "new", "chips");
    const r = run(box, ["--chip-dir", fresh, "chips", "list"]);
    expect(r.code).toBe(0);
    expect(modeOf(join(box.base, "new"))).toBe(0o700);
    expect(modeOf(fresh)).toBe(0o700);
  });
});
