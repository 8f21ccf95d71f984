// Hostile things left under chip names in the directory (a FIFO, a symlink, an oversized file) and
// chips dated far in the future: opening, listing and saving must stay alive and lose nothing.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir as kitTempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { ChipStoreError, openChipStore } from "../src/index.js";

const dist = new URL("../dist/index.js", import.meta.url).pathname;
const tempDir = (): string => kitTempDir("chip-hostile-");

const record = (id: string, created_at: string) =>
  JSON.stringify({ id, tool: "t", args: { content: "y".repeat(80) }, created_at });

describe("hostile files under chip names", () => {
  it("a FIFO named like a chip is skipped, not read forever", () => {
    const dir = tempDir();
    execFileSync("mkfifo", [join(dir, "chip-abcdef.json")]);
    // In a child process with a deadline: a blocking read would hang the test runner itself.
    const script = `
      const { openChipStore } = await import(${JSON.stringify(dist)});
      const s = openChipStore({ dir: ${JSON.stringify(dir)} });
      let code = null;
      try { s.get("abcdef"); } catch (e) { code = e.code; }
      const saved = s.saveContent({ tool: "t", content: "kept" });
      process.stdout.write(JSON.stringify({ skipped: s.loadReport.skipped, code, id: saved.chip.id }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 15_000,
      encoding: "utf8",
    });
    expect(r.signal, "the process hung on the FIFO").toBeNull();
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as { skipped: { file: string; reason: string }[]; code: string };
    expect(out.skipped.map((s) => s.file)).toEqual(["chip-abcdef.json"]);
    expect(out.skipped[0]?.reason).toMatch(/not a regular file/);
    expect(out.code).toBe("chip_corrupt");
  });

  it("a symlink named like a chip is not followed out of the directory", () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, "secret.json"), record("abcdef", "2026-01-01T00:00:00Z"));
    symlinkSync(join(outside, "secret.json"), join(dir, "chip-abcdef.json"));
    const store = openChipStore({ dir });
    expect(store.list()).toEqual([]);
    expect(store.loadReport.skipped[0]?.reason).toMatch(/symbolic link/);
    expect(() => store.get("abcdef")).toThrow(ChipStoreError);
  });

  it("a chip file far larger than any chip could be is skipped without being read", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "chip-abcdef.json"),
      record("abcdef", "2026-01-01T00:00:00Z").padEnd(2 * 1024 * 1024),
    );
    const store = openChipStore({ dir, maxChipBytes: 1000 });
    expect(store.list()).toEqual([]);
    expect(store.loadReport.skipped[0]?.reason).toMatch(/over the .*limit/);
  });
});

describe("chips dated ahead of the clock", () => {
  it("a chip dated in year 9999 does not make later chips unreadable or stamp them with its date", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "chip-abcdef.json"), record("abcdef", "9999-12-31T23:59:59.999999999Z"));
    const now = Date.UTC(2026, 10, 30, 12, 0, 0);
    const store = openChipStore({ dir, clock: () => now });
    const { chip } = store.saveContent({ tool: "t", content: "precious" });
    expect(chip?.created_at.startsWith("2026-11-30T12:00:00.000")).toBe(true);
    const reopened = openChipStore({ dir, clock: () => now });
    expect(reopened.loadReport.skipped).toEqual([]);
    expect(reopened.replay(chip?.id as string)).toBe("precious");
  });
});

describe("error text of a failure chip", () => {
  it("a non-string or oversized errMsg is a typed error and writes nothing", () => {
    const dir = tempDir();
    const store = openChipStore({ dir, maxChipBytes: 1000 });
    const args = { content: "x".repeat(100) };
    const hostile = {
      toString: () => {
        throw new Error("boom");
      },
    } as unknown as string;
    const codeOf = (errMsg: string) => {
      try {
        store.saveFailure({ tool: "t", args, errMsg });
      } catch (e) {
        return (e as ChipStoreError).code;
      }
      return "saved";
    };
    expect(codeOf(hostile)).toBe("chip_invalid_input");
    expect(codeOf("e".repeat(5000))).toBe("chip_too_large");
    expect(store.list()).toEqual([]);
  });
});

describe("a directory that refuses writes (chattr +i)", () => {
  it("saves warn and keep the chip, a refused delete says so, and saves persist again once writable", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    const first = store.saveContent({ tool: "t", content: "on disk" }).chip?.id as string;
    execFileSync("chattr", ["+i", dir]);
    let refused: ChipStoreError | undefined;
    let clearRefused: ChipStoreError | undefined;
    let saved: ReturnType<typeof store.saveContent>;
    let memoryText = "";
    try {
      saved = store.saveContent({ tool: "t", content: "memory only" });
      memoryText = store.replay(saved.chip?.id as string);
      try {
        store.delete(first);
      } catch (e) {
        refused = e as ChipStoreError;
      }
      try {
        store.clear();
      } catch (e) {
        clearRefused = e as ChipStoreError;
      }
    } finally {
      execFileSync("chattr", ["-i", dir]);
    }
    expect(saved.warnings.join("\n")).toMatch(/kept in memory only/);
    expect(memoryText).toBe("memory only");
    expect(refused?.code).toBe("chip_io_failed");
    expect(clearRefused?.code).toBe("chip_io_failed");
    // clear removed the memory-only chip but kept the one whose file it could not delete.
    expect(store.list().map((c) => c.id)).toEqual([first]);
    // The refused delete lost nothing: the chip is still listed and readable, here and elsewhere.
    expect(store.replay(first)).toBe("on disk");
    expect(openChipStore({ dir }).replay(first)).toBe("on disk");
    const later = store.saveContent({ tool: "t", content: "persisted" });
    expect(later.warnings).toEqual([]);
    expect(openChipStore({ dir }).replay(later.chip?.id as string)).toBe("persisted");
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("a writer killed mid-write (SIGKILL)", () => {
  it("leaves only whole chips, and its temp files are cleaned up later", async () => {
    const dir = tempDir();
    const script = `
      const { openChipStore } = await import(${JSON.stringify(dist)});
      const s = openChipStore({ dir: ${JSON.stringify(dir)}, capacity: 1000 });
      for (let i = 0; ; i++) s.saveContent({ tool: "t", content: String(i % 10).repeat(2 * 1024 * 1024) });`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
    const chips = () => readdirSync(dir).filter((n) => n.startsWith("chip-")).length;
    for (let waited = 0; chips() < 4 && waited < 20_000; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(chips()).toBeGreaterThanOrEqual(4);
    // Eleven minutes on, a leftover temp file is a crashed writer's, not a live one's.
    const later = Date.now() + 11 * 60 * 1000;
    const store = openChipStore({ dir, capacity: 1000, clock: () => later });
    expect(store.loadReport.skipped).toEqual([]);
    for (const meta of store.list()) {
      const text = store.replay(meta.id);
      expect(text.length).toBe(2 * 1024 * 1024);
      expect(text).toBe((text[0] as string).repeat(text.length));
    }
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});
