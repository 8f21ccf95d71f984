// Saving chips: failure chips over the size threshold, content chips, and what each returns.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeClock, tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { openChipStore } from "./store.js";
import { bigArgs } from "./testkit.test-helpers.js";

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
