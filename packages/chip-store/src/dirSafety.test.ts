// Never change what we do not own: directories we create are 0700, an existing directory keeps
// its mode and owner, and an unsafe one is refused (chip_unsafe_dir) with the fix, untouched.
// Crash leftovers of our own writes are removed when the store opens, not ten minutes later.
// A huge file under a chip name is refused by its size, before it is read.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, readdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { isChipStoreError, openChipStore } from "./index.js";

const modeOf = (p: string) => statSync(p).mode & 0o7777;

function openError(dir: string) {
  try {
    openChipStore({ dir });
  } catch (err) {
    if (isChipStoreError(err)) return err;
    throw err;
  }
  throw new Error("expected openChipStore to refuse the directory");
}

describe("chip directory ownership", () => {
  it("creates missing directories 0700, each level it creates", () => {
    const base = tempDir();
    chmodSync(base, 0o755);
    const dir = join(base, "a", "b", "chips");
    openChipStore({ dir }).saveContent({ tool: "t", content: "x".repeat(100) });
    expect(modeOf(base)).toBe(0o755);
    for (const d of [join(base, "a"), join(base, "a", "b"), dir]) expect(modeOf(d)).toBe(0o700);
  });

  it("keeps the mode of an existing directory (a project dir, a shared 1777 dir)", () => {
    const project = tempDir();
    chmodSync(project, 0o755);
    openChipStore({ dir: project }).saveContent({ tool: "t", content: "x".repeat(100) });
    expect(modeOf(project)).toBe(0o755);
    const shared = tempDir();
    chmodSync(shared, 0o1777);
    openChipStore({ dir: shared });
    expect(modeOf(shared)).toBe(0o1777);
  });

  it("refuses a world-writable directory without the sticky bit, unchanged, and says how to fix it", () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const err = openError(dir);
    expect(err.code).toBe("chip_unsafe_dir");
    expect(err.message).toContain("mode 0777");
    expect(err.message).toContain(`chmod o-w ${dir}`);
    expect(modeOf(dir)).toBe(0o777);
  });

  it("refuses a directory owned by another user, unchanged", () => {
    const dir = tempDir();
    const uid = process.getuid?.() ?? 0;
    const other = uid === 0 ? 12345 : uid;
    if (uid === 0) chownSync(dir, other, other);
    else {
      // Without root no directory can be given away; /proc's root-owned entries stand in.
      expect(statSync("/").uid).not.toBe(uid);
    }
    const target = uid === 0 ? dir : "/";
    const before = modeOf(target);
    const err = openError(target);
    expect(err.code).toBe("chip_unsafe_dir");
    expect(err.message).toContain("owned by uid");
    expect(modeOf(target)).toBe(before);
  });
});

describe("crash leftovers and oversized files", () => {
  it("removes temp files of dead writers when the store opens; keeps a live writer's", () => {
    const dir = tempDir();
    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout,
    );
    writeFileSync(join(dir, `.chip-p${dead}-00aa.tmp`), "x".repeat(1000));
    writeFileSync(join(dir, `.chip-p${process.pid}-00bb.tmp`), "x");
    writeFileSync(join(dir, ".chip-00cc.tmp"), "x"); // old-style name: only age tells
    const store = openChipStore({ dir });
    expect(store.loadReport.staleTempsRemoved).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([".chip-00cc.tmp", `.chip-p${process.pid}-00bb.tmp`]);
  });

  it("refuses a huge file under a valid chip name by its size, without reading it", () => {
    const dir = tempDir();
    const big = join(dir, "chip-abcdef.json");
    // Sparse: 200 MB by size, no disk used; reading it whole would cost 200 MB of memory.
    writeFileSync(big, "{}");
    truncateSync(big, 200 * 1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const store = openChipStore({ dir });
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(store.loadReport.skipped).toHaveLength(1);
    expect(store.loadReport.skipped[0]?.reason).toContain("over the");
  });
});
