// Chips on disk (files, damage, permissions) and listing, deleting and clearing them.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeClock, tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { ChipStoreError } from "./errors.js";
import { openChipStore } from "./store.js";
import { bigArgs } from "./testkit.test-helpers.js";

describe("disk", () => {
  it("creates files 0600 in a 0700 directory", () => {
    const dir = join(tempDir(), "nested", "chips");
    const store = openChipStore({ dir });
    const { chip } = store.saveContent({ tool: "t", content: "secret" });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, `chip-${chip!.id}.json`)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("finds a chip written after it opened (another process, or before a restart)", () => {
    const dir = tempDir();
    const reader = openChipStore({ dir });
    const writer = openChipStore({ dir });
    const { chip } = writer.saveContent({ tool: "t", content: "from elsewhere" });
    expect(reader.get(chip!.id).content).toBe("from elsewhere");
  });

  it("skips and reports corrupt or checksum-failing files without deleting them", () => {
    const dir = tempDir();
    const { chip } = openChipStore({ dir }).saveContent({ tool: "t", content: "original text" });
    const file = join(dir, `chip-${chip!.id}.json`);
    const tampered = readFileSync(file, "utf8").replace("original text", "tampered text");
    writeFileSync(file, tampered);
    writeFileSync(join(dir, "chip-123456.json"), "garbage");
    const store = openChipStore({ dir });
    expect(store.loadReport.skipped.map((s) => s.file).sort()).toEqual(
      [`chip-${chip!.id}.json`, "chip-123456.json"].sort(),
    );
    expect(store.loadReport.skipped.find((s) => s.file.includes(chip!.id))?.reason).toMatch(/checksum/);
    expect(store.list()).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(tampered);
    expect(() => store.get(chip!.id)).toThrowError(expect.objectContaining({ code: "chip_corrupt" }));
  });

  it("reports a write failure as a warning and keeps the chip in memory", () => {
    const parent = tempDir();
    const dir = join(parent, "chips");
    const store = openChipStore({ dir });
    // Root ignores permission bits, so the directory is replaced by a plain file instead.
    rmSync(dir, { recursive: true });
    writeFileSync(dir, "not a directory");
    const res = store.saveContent({ tool: "be-delete", content: "must not be lost" });
    expect(res.chip).not.toBeNull();
    expect(res.warnings.join("\n")).toMatch(/kept in memory only/);
    expect(store.replay(res.chip!.id)).toBe("must not be lost");
  });

  it("reports an unusable directory when opening, and still works in memory", () => {
    const parent = tempDir();
    const file = join(parent, "file");
    writeFileSync(file, "x");
    const store = openChipStore({ dir: join(file, "chips") });
    expect(store.loadReport.warnings.join("\n")).toMatch(/cannot use chip directory/);
    const res = store.saveFailure({ tool: "be-write", args: bigArgs("kept") });
    expect(res.warnings.join("\n")).toMatch(/kept in memory only/);
    expect(store.replay(res.chip!.id)).toBe(bigArgs("kept").content);
  });

  it("leaves ordering deterministic for chips with the same created_at (by id)", () => {
    const dir = tempDir();
    const rec = (id: string) => ({
      id,
      tool: "t",
      args: { content: "y".repeat(80) },
      created_at: "2026-01-01T00:00:00Z",
    });
    for (const id of ["ffffff", "000001", "abc123"])
      writeFileSync(join(dir, `chip-${id}.json`), JSON.stringify(rec(id)));
    expect(
      openChipStore({ dir })
        .list()
        .map((c) => c.id),
    ).toEqual(["000001", "abc123", "ffffff"]);
  });
});

describe("list, delete, clear", () => {
  it("filters by tool, kind, path and text", () => {
    const store = openChipStore({ dir: tempDir(), clock: fakeClock() });
    store.saveFailure({ tool: "be-write", args: bigArgs("alpha"), errMsg: "bad escape" });
    store.saveContent({
      tool: "be-delete",
      content: "beta body",
      origin: { path: "/r/src/b.ts", start_line: 1, end_line: 1 },
    });
    store.saveContent({
      tool: "be-replace",
      content: "gamma",
      origin: { path: "/r/src/c.ts", start_line: 2, end_line: 2 },
    });
    expect(store.list({ tool: "be-write" })).toHaveLength(1);
    expect(store.list({ kind: "content" }).map((c) => c.tool)).toEqual(["be-delete", "be-replace"]);
    expect(store.list({ path: "src/b.ts" }).map((c) => c.tool)).toEqual(["be-delete"]);
    expect(store.list({ query: "BAD ESCAPE" }).map((c) => c.tool)).toEqual(["be-write"]);
    expect(store.list({ query: "gamma" }).map((c) => c.tool)).toEqual(["be-replace"]);
  });

  it("deletes one chip and clears all, on disk too", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    const a = store.saveContent({ tool: "t", content: "a" }).chip!.id;
    store.saveContent({ tool: "t", content: "b" });
    expect(store.delete(a)).toBe(true);
    expect(store.delete(a)).toBe(false);
    expect(store.list()).toHaveLength(1);
    expect(store.clear()).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("works without persistence", () => {
    const store = openChipStore({ persist: false, capacity: 2 });
    const a = store.saveContent({ tool: "t", content: "a" }).chip!.id;
    store.saveContent({ tool: "t", content: "b" });
    const res = store.saveContent({ tool: "t", content: "c" });
    expect(res.evicted).toEqual([a]);
    expect(res.warnings).toEqual([`oldest chip ${a} was evicted (queue max 2)`]);
  });

  it("refuses use after close", () => {
    const store = openChipStore({ persist: false });
    store.close();
    expect(() => store.list()).toThrow(ChipStoreError);
  });
});
