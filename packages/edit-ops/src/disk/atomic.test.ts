import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { deadPid } from "../../test/helpers.js";
import { removeStaleTemps, TEMP_SUFFIX, tempName, writeAtomic } from "./atomic.js";
import { plainDir } from "./confine.js";

const tmp = () => tempDir("edit-ops-atomic-");
const io = { randomHex: () => "00112233445566ff", now: () => Date.now() };

describe("writeAtomic", () => {
  it("replaces the bytes and copies the old mode", async () => {
    const d = tmp();
    const f = join(d, "f");
    writeFileSync(f, "old", { mode: 0o640 });
    await writeAtomic(plainDir(d), "f", Buffer.from("new"), { ...io, previous: statSync(f) });
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
      writeAtomic(plainDir(d), "f", Buffer.from("new"), {
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
    await writeAtomic(plainDir(d), "secret", Buffer.from("x"), { ...io, previous: null, mode: 0o600 });
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  it("an exclusive creation never replaces a file that appeared meanwhile", async () => {
    const d = tmp();
    const f = join(d, "new.txt");
    await expect(
      writeAtomic(plainDir(d), "new.txt", Buffer.from("mine"), {
        ...io,
        previous: null,
        exclusive: true,
        beforeRename: async () => writeFileSync(f, "theirs"),
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(readFileSync(f, "utf8")).toBe("theirs");
    expect(readdirSync(d)).toEqual(["new.txt"]);
  });
});

describe("removeStaleTemps", () => {
  it("removes crashed writers' temp files of any file at once, keeps a live writer's and other names", async () => {
    const d = tmp();
    const dead = deadPid();
    const gone = [
      `.f.txt.${dead}-aaaaaaaaaaaaaaaa${TEMP_SUFFIX}`,
      `.other.txt.${dead}-bbbbbbbbbbbbbbbb${TEMP_SUFFIX}`,
    ];
    const live = tempName("f.txt", "cccccccccccccccc"); // this process: alive
    for (const n of [...gone, live, ".f.txt.keep.tmp", `.f.txt.${dead}-short${TEMP_SUFFIX}`])
      writeFileSync(join(d, n), "x");
    expect(removeStaleTemps(plainDir(d), Date.now())).toBe(2);
    expect(readdirSync(d).sort()).toEqual(
      [".f.txt.keep.tmp", `.f.txt.${dead}-short${TEMP_SUFFIX}`, live].sort(),
    );
  });

  it("removes old-style temp names (no pid) only once they are ten minutes old", async () => {
    const d = tmp();
    writeFileSync(join(d, `.f.txt.aaaaaaaaaaaaaaaa${TEMP_SUFFIX}`), "x");
    expect(removeStaleTemps(plainDir(d), Date.now())).toBe(0);
    expect(removeStaleTemps(plainDir(d), Date.now() + 3600_000)).toBe(1);
  });
});
