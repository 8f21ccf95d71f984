import { readdirSync } from "node:fs";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { openChipStore } from "./store.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

describe("bad input gets a typed error and leaves nothing half-written", () => {
  it("refuses args with cycles or BigInt", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    const cyclic: Record<string, unknown> = { content: "x".repeat(100) };
    cyclic.self = cyclic;
    expect(codeOf(() => store.saveFailure({ tool: "t", args: cyclic }))).toBe("chip_invalid_input");
    expect(codeOf(() => store.saveFailure({ tool: "t", args: { n: 10n, content: "x".repeat(100) } }))).toBe(
      "chip_invalid_input",
    );
    expect(codeOf(() => store.saveFailure({ tool: "t", args: undefined }))).toBe("chip_invalid_input");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a missing tool name and a malformed origin", () => {
    const store = openChipStore({ dir: tempDir() });
    expect(codeOf(() => store.saveContent({ tool: "", content: "x" }))).toBe("chip_invalid_input");
    const origin = { path: "/a", start_line: 5, end_line: 2 };
    expect(codeOf(() => store.saveContent({ tool: "t", content: "x", origin }))).toBe("chip_invalid_input");
    expect(codeOf(() => store.saveContent({ tool: "t", content: 42 as unknown as string }))).toBe(
      "chip_invalid_input",
    );
  });

  it("saves 10 MiB of content exactly and reads it back after a restart", () => {
    const dir = tempDir();
    const big = "0123456789abcdef\n".repeat((10 * 1024 * 1024) / 17 + 1);
    const { chip } = openChipStore({ dir }).saveContent({ tool: "be-write", content: big });
    expect(chip!.bytes).toBe(Buffer.byteLength(big));
    const reopened = openChipStore({ dir });
    expect(reopened.replay(chip!.id) === big).toBe(true);
  });

  it("refuses content over the size limit with nothing written", () => {
    const dir = tempDir();
    const store = openChipStore({ dir, maxChipBytes: 1024 });
    expect(codeOf(() => store.saveContent({ tool: "t", content: "x".repeat(1025) }))).toBe("chip_too_large");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses nonsense options", () => {
    for (const opts of [{ capacity: 0 }, { capacity: 1.5 }, { ttlMs: -1 }, { persist: true }]) {
      expect(codeOf(() => openChipStore(opts))).toBe("chip_invalid_option");
    }
  });
});

describe("deeply nested args", () => {
  it("args nested 3000 levels deep are saved, read back and replayed, or refused with a typed error", () => {
    const dir = tempDir();
    const store = openChipStore({ dir });
    let args: Record<string, unknown> = { content: "deep text ".repeat(20) };
    for (let i = 0; i < 3000; i++) args = { n: args };
    let id: string | undefined;
    try {
      id = store.saveFailure({ tool: "t", args }).chip?.id;
    } catch (e) {
      expect((e as { code?: string }).code).toBe("chip_invalid_input");
      return;
    }
    expect(id).toBeDefined();
    expect(JSON.stringify(store.get(id as string).args)).toBe(JSON.stringify(args));
    expect(store.replay(id as string)).toBe("deep text ".repeat(20));
    const reopened = openChipStore({ dir });
    expect(reopened.loadReport.skipped).toEqual([]);
    expect(reopened.replay(id as string)).toBe("deep text ".repeat(20));
  });
});
