import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { Snapshots } from "../doc/snapshots.js";
import { commit } from "./commit.js";
import { procFdWorks } from "./confine.js";
import { type FileDeps, withFile } from "./load.js";
import { openRoots, resolvePath } from "./roots.js";

function env() {
  const root = tempDir("edit-ops-store-");
  const roots = openRoots([root]);
  const deps: FileDeps = {
    roots,
    maxFileBytes: 1 << 20,
    lockTimeoutMs: 1000,
    randomHex: () => "0123456789abcdef",
    snapshots: new Snapshots(),
    journal: { dir: join(root, ".journal"), depth: 5, randomHex: () => "0123456789abcdef", now: Date.now },
  };
  return { root, deps, roots };
}

/** The journal's entry files, across every file's directory. */
function journalEntries(deps: FileDeps): string[] {
  if (!existsSync(deps.journal.dir)) return [];
  return readdirSync(deps.journal.dir).flatMap((d) =>
    readdirSync(join(deps.journal.dir, d)).filter((n) => n.endsWith(".edit")),
  );
}

const io = { op: "replace", journal: true, randomHex: () => "fedcba9876543210", now: Date.now };

describe("commit", () => {
  it("refuses with conflict when the file changed after it was loaded, writing nothing", async () => {
    const { root, deps, roots } = env();
    const f = join(root, "a.txt");
    writeFileSync(f, "one\n");
    const at = await resolvePath("a.txt", roots);
    await withFile(deps, at, { mode: "text", lock: true }, async (loaded) => {
      writeFileSync(f, "someone else, longer\n");
      await expect(commit(deps, loaded, Buffer.from("mine\n"), io)).rejects.toMatchObject({
        code: "conflict",
      });
    });
    expect(readFileSync(f, "utf8")).toBe("someone else, longer\n");
    // The entry written for the refused edit was taken back: undo must not see an edit that never was.
    expect(journalEntries(deps)).toEqual([]);
  });

  it("has the journal entry on disk before the file is replaced", async () => {
    const { root, deps, roots } = env();
    const f = join(root, "a.txt");
    writeFileSync(f, "one\n");
    const at = await resolvePath("a.txt", roots);
    const seen: string[][] = [];
    await withFile(deps, at, { mode: "text", lock: true }, async (loaded) => {
      const lock = loaded.lock!;
      // verify() is the last step before the rename.
      loaded.lock = {
        verify: async () => {
          seen.push(journalEntries(deps));
          expect(readFileSync(f, "utf8")).toBe("one\n");
          await lock.verify();
        },
        release: () => lock.release(),
      };
      await commit(deps, loaded, Buffer.from("two\n"), io);
    });
    expect(seen).toEqual([["0000000001.edit"]]);
    expect(readFileSync(f, "utf8")).toBe("two\n");
  });

  it("refuses to create a file that appeared after it was found missing", async () => {
    const { root, deps, roots } = env();
    const at = await resolvePath("b.txt", roots);
    await withFile(deps, at, { mode: "text-or-none", lock: true }, async (loaded) => {
      writeFileSync(join(root, "b.txt"), "theirs");
      await expect(commit(deps, loaded, Buffer.from("mine"), io)).rejects.toMatchObject({ code: "conflict" });
    });
    expect(readFileSync(join(root, "b.txt"), "utf8")).toBe("theirs");
  });
});

describe("the residual window", () => {
  it.runIf(procFdWorks())(
    "warns when the directory itself is moved out of the roots between the last check and the rename",
    async () => {
      const { root, deps, roots } = env();
      const outside = tempDir("edit-ops-moved-");
      mkdirSync(join(root, "sub"));
      writeFileSync(join(root, "sub", "a.txt"), "one\n");
      const at = await resolvePath("sub/a.txt", roots);
      const warnings = await withFile(deps, at, { mode: "text", lock: true }, async (loaded) => {
        const lock = loaded.lock!;
        // The lock is checked after the directory: moving the directory there hits the window.
        loaded.lock = {
          verify: async () => {
            await lock.verify();
            renameSync(join(root, "sub"), join(outside, "sub"));
          },
          release: () => lock.release(),
        };
        return commit(deps, loaded, Buffer.from("two\n"), io);
      });
      expect(warnings.join("\n")).toContain("now lies outside the allowed roots");
      expect(readFileSync(join(outside, "sub", "a.txt"), "utf8")).toBe("two\n");
    },
  );
});
