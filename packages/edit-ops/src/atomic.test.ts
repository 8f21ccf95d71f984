import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStaleTemps, tempName, writeAtomic } from "./atomic.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "edit-ops-atomic-"));
  dirs.push(d);
  return d;
};
const io = { randomHex: () => "00112233445566ff", now: () => Date.now() };

describe("writeAtomic", () => {
  it("replaces the bytes and copies the old mode", async () => {
    const d = tmp();
    const f = join(d, "f");
    writeFileSync(f, "old", { mode: 0o640 });
    await writeAtomic(f, Buffer.from("new"), { ...io, previous: statSync(f) });
    expect(readFileSync(f, "utf8")).toBe("new");
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(d)).toEqual(["f"]);
  });

  it("aborts before rename when the check throws: the target is untouched and the temp is gone", async () => {
    const d = tmp();
    const f = join(d, "f");
    writeFileSync(f, "old");
    const changed = Object.assign(new Error("changed underneath"), {});
    await expect(
      writeAtomic(f, Buffer.from("new"), {
        ...io,
        previous: statSync(f),
        beforeRename: async () => {
          throw changed;
        },
      }),
    ).rejects.toMatchObject({ code: "io_error" });
    expect(readFileSync(f, "utf8")).toBe("old");
    expect(readdirSync(d)).toEqual(["f"]);
  });

  it("creates new files with the requested mode", async () => {
    const d = tmp();
    const f = join(d, "secret");
    await writeAtomic(f, Buffer.from("x"), { ...io, previous: null, mode: 0o600 });
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });
});

describe("removeStaleTemps", () => {
  it("removes only our temp files for that target, and only once they are stale", async () => {
    const d = tmp();
    const target = join(d, "f.txt");
    const ours = tempName(target, "aaaaaaaaaaaaaaaa");
    writeFileSync(ours, "x");
    writeFileSync(join(d, ".f.txt.keep.tmp"), "x");
    writeFileSync(join(d, ".other.txt.aaaaaaaaaaaaaaaa.caveman-tmp"), "x");
    expect(await removeStaleTemps(target, Date.now())).toBe(0);
    expect(await removeStaleTemps(target, Date.now() + 3600_000)).toBe(1);
    expect(readdirSync(d).sort()).toEqual([".f.txt.keep.tmp", ".other.txt.aaaaaaaaaaaaaaaa.caveman-tmp"]);
  });
});
