import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeClock, tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { ChipStoreError } from "./errors.js";
import { openChipStore } from "./store.js";
import { bigArgs, scriptedRandom } from "./testkit.test-helpers.js";

describe("saving failure chips", () => {
  it("saves args over the threshold and returns the id with metadata", () => {
    const dir = tempDir();
    const store = openChipStore({ dir, clock: fakeClock() });
    const res = store.saveFailure({
      tool: "be-write",
      args: bigArgs("hello"),
      errMsg: "invalid JSON escape",
    });
    expect(res.chip).not.toBeNull();
    expect(res.chip?.id).toMatch(/^[0-9a-f]{6}$/);
    expect(res.chip?.kind).toBe("failure");
    expect(res.chip?.err_msg).toBe("invalid JSON escape");
    expect(res.warnings).toEqual([]);
    const chip = store.get(res.chip!.id);
    expect(chip.args).toEqual(bigArgs("hello"));
    expect(existsSync(join(dir, `chip-${res.chip!.id}.json`))).toBe(true);
  });

  it("returns no chip when the args JSON is at or under the threshold", () => {
    const store = openChipStore({ dir: tempDir(), failureThresholdBytes: 50 });
    const args = { a: "x".repeat(50 - '{"a":""}'.length) };
    expect(JSON.stringify(args).length).toBe(50);
    expect(store.saveFailure({ tool: "t", args }).chip).toBeNull();
    expect(store.saveFailure({ tool: "t", args: { a: `${args.a}y` } }).chip).not.toBeNull();
    expect(store.list()).toHaveLength(1);
  });

  it("writes the Go tool's field names so either program reads the other's chips", () => {
    const dir = tempDir();
    const store = openChipStore({ dir, clock: fakeClock() });
    const { chip } = store.saveFailure({ tool: "be-write", args: bigArgs("go"), errMsg: "boom" });
    const rec = JSON.parse(readFileSync(join(dir, `chip-${chip!.id}.json`), "utf8"));
    expect(rec).toMatchObject({ id: chip!.id, tool: "be-write", args: bigArgs("go"), err_msg: "boom" });
    expect(rec.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
  });

  it("reads a record written by the original Go tool (no kind, no checksum)", () => {
    const dir = tempDir();
    const goRecord = {
      id: "a1b2c3",
      tool: "be-replace",
      args: { path: "main.go", content: "package main\n\nfunc main() {}\n" },
      err_msg: "missing field start_line",
      created_at: "2026-11-30T10:00:00.123456789+01:00",
    };
    writeFileSync(join(dir, "chip-a1b2c3.json"), JSON.stringify(goRecord));
    const store = openChipStore({ dir });
    const chip = store.get("a1b2c3");
    expect(chip.kind).toBe("failure");
    expect(store.replay("a1b2c3")).toBe("package main\n\nfunc main() {}\n");
    expect(store.loadReport.loaded).toBe(1);
  });
});

describe("saving content chips", () => {
  it("keeps text raw on disk with its origin", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    const text = 'const a = "quoted";\r\n\tindented\r\n';
    const origin = { path: "/repo/src/a.ts", start_line: 3, end_line: 4 };
    const { chip } = store.saveContent({ tool: "be-delete", content: text, origin });
    expect(chip).toMatchObject({ kind: "content", lines: 2, bytes: Buffer.byteLength(text), origin });
    const rec = JSON.parse(readFileSync(join(dir, `chip-${chip!.id}.json`), "utf8"));
    expect(rec.content).toBe(text);
    expect(store.replay(chip!.id)).toBe(text);
  });

  it("keeps bytes that are not UTF-8 exactly, flagged binary and base64 on disk", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    const bytes = Uint8Array.from([0xff, 0xfe, 0x00, 0x41, 0xc3, 0x28, 0x0a]);
    const { chip } = store.saveContent({ tool: "be-write", content: bytes });
    expect(chip?.binary).toBe(true);
    const reopened = openChipStore({ dir });
    expect(Buffer.from(reopened.replayBytes(chip!.id)).equals(Buffer.from(bytes))).toBe(true);
    expect(() => reopened.replay(chip!.id)).toThrowError(expect.objectContaining({ code: "chip_binary" }));
  });

  it("stores valid UTF-8 bytes as text", () => {
    const store = openChipStore({ dir: tempDir() });
    const { chip } = store.saveContent({ tool: "t", content: Buffer.from("héllo\n", "utf8") });
    expect(chip?.binary).toBe(false);
    expect(store.replay(chip!.id)).toBe("héllo\n");
  });

  it("saves empty content as an empty chip", () => {
    const store = openChipStore({ dir: tempDir() });
    const { chip } = store.saveContent({ tool: "be-delete", content: "" });
    expect(chip).toMatchObject({ bytes: 0, lines: 0 });
    expect(store.replay(chip!.id)).toBe("");
  });

  it("keeps text with unpaired surrogates exactly", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    const text = `a\ud800b\udfffc`;
    const { chip } = store.saveContent({ tool: "t", content: text });
    expect(openChipStore({ dir }).replay(chip!.id)).toBe(text);
  });
});

describe("FIFO eviction", () => {
  it("evicts the oldest chip past capacity, says which, and removes its file", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const store = openChipStore({ dir, capacity: 3, clock });
    const ids = [1, 2, 3].map((i) => {
      clock.advance(1);
      return store.saveContent({ tool: "t", content: `chip ${i}` }).chip!.id;
    });
    const res = store.saveContent({ tool: "t", content: "chip 4" });
    expect(res.evicted).toEqual([ids[0]]);
    expect(res.warnings).toContain(`oldest chip ${ids[0]} was evicted (queue max 3)`);
    expect(existsSync(join(dir, `chip-${ids[0]}.json`))).toBe(false);
    expect(store.list().map((c) => c.id)).toEqual([ids[1], ids[2], res.chip!.id]);
  });

  it("keeps FIFO order for saves within the same millisecond", () => {
    const store = openChipStore({ dir: tempDir(), capacity: 50, clock: () => 1_000_000 });
    const ids = Array.from(
      { length: 20 },
      (_, i) => store.saveContent({ tool: "t", content: `c${i}` }).chip!.id,
    );
    expect(store.list().map((c) => c.id)).toEqual(ids);
  });

  it("orders a chip saved right after a restart, in the same millisecond, after the older ones", () => {
    const dir = tempDir();
    const clock = () => 5_000;
    for (let round = 0; round < 20; round++) {
      const store = openChipStore({ dir, capacity: 1, clock });
      const { chip, evicted } = store.saveContent({ tool: "t", content: `round ${round}` });
      expect(store.list().map((c) => c.id)).toEqual([chip!.id]);
      if (round > 0) expect(evicted).toHaveLength(1);
    }
  });

  it("applies capacity when reopening a directory that holds more chips", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const big = openChipStore({ dir, capacity: 10, clock });
    const ids = Array.from({ length: 6 }, (_, i) => {
      clock.advance(5);
      return big.saveContent({ tool: "t", content: `c${i}` }).chip!.id;
    });
    const small = openChipStore({ dir, capacity: 4, clock });
    expect(small.loadReport.evicted).toEqual(ids.slice(0, 2));
    expect(small.list().map((c) => c.id)).toEqual(ids.slice(2));
    expect(readdirSync(dir).filter((n) => n.startsWith("chip-"))).toHaveLength(4);
  });
});

describe("TTL", () => {
  it("neither lists nor returns an expired chip, and removes its file", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const store = openChipStore({ dir, ttlMs: 1000, clock });
    const { chip } = store.saveContent({ tool: "t", content: "soon gone" });
    expect(chip?.expires_at).toBeDefined();
    clock.advance(999);
    expect(store.get(chip!.id).content).toBe("soon gone");
    clock.advance(1);
    expect(store.list()).toEqual([]);
    expect(() => store.get(chip!.id)).toThrowError(expect.objectContaining({ code: "chip_not_found" }));
    expect(existsSync(join(dir, `chip-${chip!.id}.json`))).toBe(false);
  });

  it("drops expired chips found on disk when opening", () => {
    const dir = tempDir();
    const clock = fakeClock();
    const { chip } = openChipStore({ dir, ttlMs: 10, clock }).saveContent({ tool: "t", content: "x" });
    clock.advance(11);
    const reopened = openChipStore({ dir, ttlMs: 10, clock });
    expect(reopened.loadReport.expired).toEqual([chip!.id]);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("ids", () => {
  it("retries on an id taken in memory", () => {
    const random = scriptedRandom([
      [0xab, 0xcd, 0xef],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [0xab, 0xcd, 0xef],
    ]);
    const store = openChipStore({ dir: tempDir(), random });
    expect(store.saveContent({ tool: "t", content: "one" }).chip!.id).toBe("abcdef");
    const second = store.saveContent({ tool: "t", content: "two" }).chip!.id;
    expect(second).not.toBe("abcdef");
    expect(second).toMatch(/^[0-9a-f]{6}$/);
  });

  it("retries on an id taken on disk by another process", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "chip-abcdef.json"), "{not json");
    const random = scriptedRandom([[0xab, 0xcd, 0xef]]);
    const store = openChipStore({ dir, random });
    const { chip } = store.saveContent({ tool: "t", content: "mine" });
    expect(chip!.id).not.toBe("abcdef");
    expect(readFileSync(join(dir, "chip-abcdef.json"), "utf8")).toBe("{not json");
  });

  it("falls back to 12 hex characters after 5 collisions", () => {
    const same = [0x11, 0x22, 0x33];
    const random = scriptedRandom([same, [1, 2, 3, 4, 5, 6, 7, 8], same, same, same, same, same]);
    const store = openChipStore({ dir: tempDir(), random });
    store.saveContent({ tool: "t", content: "first" });
    const { chip } = store.saveContent({ tool: "t", content: "second" });
    expect(chip!.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it("treats a path-like id as a clean not-found and never reads outside the directory", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    for (const bad of ["../../etc/passwd", "ABCDEF", "abcde", "abcdefg", "", "chip-abcdef", "abcdef/../x"]) {
      expect(store.find(bad)).toBeNull();
      expect(() => store.get(bad)).toThrowError(expect.objectContaining({ code: "chip_invalid_id" }));
      expect(store.delete(bad)).toBe(false);
    }
    expect(() => store.get("abcdef")).toThrowError(expect.objectContaining({ code: "chip_not_found" }));
  });
});

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
