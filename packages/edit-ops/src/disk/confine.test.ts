// Deterministic checks of the two confinement modes: a directory is pinned, then swapped for a
// symlink to the outside before the next step. On Linux (/proc/self/fd) the next step still
// lands in the pinned directory; in the portable mode the swap is detected and refused.
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { failure } from "../../test/helpers.js";
import { forceIdentityMode, pinDir, procFdWorks } from "./confine.js";
import { openEntry } from "./entries.js";
import { openRoots } from "./roots.js";

afterEach(() => {
  forceIdentityMode(false);
});

function tree() {
  const base = tempDir("edit-ops-confine-");
  const root = join(base, "root");
  const sub = join(root, "sub");
  const outside = join(base, "outside");
  mkdirSync(sub, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(sub, "f.txt"), "inside\n");
  writeFileSync(join(outside, "f.txt"), "OUTSIDE\n");
  const swap = () => {
    renameSync(sub, `${sub}.real`);
    symlinkSync(outside, sub);
  };
  return { root, sub, outside, swap, roots: openRoots([root]) };
}

describe("pinned directories (Linux /proc/self/fd)", () => {
  it.runIf(procFdWorks())(
    "keep reaching the pinned directory after its path is swapped for a link",
    async () => {
      const { sub, outside, swap, roots } = tree();
      const dir = (await pinDir(sub, roots, "sub"))!;
      swap();
      const h = (await openEntry(dir, "f.txt", "sub/f.txt"))!;
      expect((await h.readFile()).toString()).toBe("inside\n");
      await h.close();
      const w = await open(dir.entry("new.txt"), "wx");
      await dir.verifyHandle(w, "new.txt", "sub/new.txt");
      await w.close();
      expect(readFileSync(`${sub}.real/new.txt`, "utf8")).toBe("");
      expect(() => readFileSync(join(outside, "new.txt"))).toThrow();
      await dir.close();
    },
  );

  it.runIf(procFdWorks())("refuse a directory that is reached through a link to the outside", async () => {
    const { sub, swap, roots } = tree();
    swap();
    expect((await failure(pinDir(sub, roots, "sub"))).code).toBe("outside_roots");
  });
});

describe("portable mode (no /proc: identity re-checks)", () => {
  it("refuses the next step once the pinned directory's path leads elsewhere", async () => {
    forceIdentityMode(true);
    const { sub, swap, roots } = tree();
    const dir = (await pinDir(sub, roots, "sub"))!;
    const h = (await openEntry(dir, "f.txt", "sub/f.txt"))!;
    expect((await h.readFile()).toString()).toBe("inside\n");
    await h.close();
    swap();
    expect((await failure(dir.verify())).code).toBe("outside_roots");
    expect((await failure(openEntry(dir, "f.txt", "sub/f.txt"))).code).toBe("outside_roots");
  });
});
