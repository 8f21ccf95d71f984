import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeClock, tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { decodeEntry, encodeEntry, type SavingsEntry } from "./entry.js";
import { JOURNAL_FILE, openJournal } from "./journal.js";

const H = (n: number) => `ccr_${n.toString(16).padStart(32, "0")}`;
const entry = (over: Partial<SavingsEntry> = {}): SavingsEntry => ({
  at: fakeClock()(),
  event: "kept",
  host: "claude-code",
  tool: "Bash",
  kind: "log",
  tokensIn: 1000,
  tokensOut: 100,
  handle: H(1),
  session: "s-1",
  ...over,
});

describe("savings journal lines", () => {
  it("round-trip and keep names only: a producer's command never reaches the journal", () => {
    const line = encodeEntry(entry({ tool: "run_shell_command: cat /etc/secret.log", kind: "log" }))!;
    expect(line).not.toContain("secret");
    expect(line).not.toContain("cat");
    expect(decodeEntry(line)).toEqual(entry({ tool: "run_shell_command" }));
  });

  it("are bounded whatever the caller passes", () => {
    const line = encodeEntry(
      entry({ tool: "x".repeat(100_000), session: "y".repeat(100_000), kind: "z".repeat(5000) }),
    )!;
    expect(line.length).toBeLessThan(500);
  });

  it("refuse what cannot be written faithfully, and torn or foreign lines read as null", () => {
    expect(encodeEntry(entry({ handle: "ccr_nothex" }))).toBeNull();
    expect(encodeEntry(entry({ tokensIn: -1 }))).toBeNull();
    expect(encodeEntry(entry({ tokensOut: 1.5 }))).toBeNull();
    expect(encodeEntry(entry({ tool: "  " }))).toBeNull();
    const line = encodeEntry(entry())!;
    expect(decodeEntry(line.slice(0, 40))).toBeNull();
    expect(decodeEntry('{"hello":1}')).toBeNull();
    expect(decodeEntry("[]")).toBeNull();
  });
});

describe("openJournal", () => {
  it("appends whole lines to a 0600 file and reads them back oldest first", () => {
    const dir = tempDir();
    const j = openJournal({ dir });
    expect(j.append(entry({ handle: H(1) }))).toBe(true);
    expect(j.append(entry({ handle: H(2), event: "retrieved", tokensIn: 0, tokensOut: 40 }))).toBe(true);
    expect(statSync(j.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(j.path, "utf8").split("\n")).toHaveLength(3);
    expect(j.read().map((e) => e.handle)).toEqual([H(1), H(2)]);
  });

  it("stays bounded: past maxBytes one older generation is kept and the oldest dropped", () => {
    const dir = tempDir();
    const j = openJournal({ dir, maxBytes: 2000 });
    for (let i = 0; i < 200; i++) j.append(entry({ handle: H(i) }));
    const read = j.read();
    expect(read.length).toBeGreaterThan(5);
    expect(read.length).toBeLessThan(40);
    expect(read.at(-1)!.handle).toBe(H(199));
    const handles = read.map((e) => e.handle);
    expect([...handles].sort()).toEqual(handles);
  });

  it("stamps an entry without a time from the injected clock", () => {
    const clock = fakeClock();
    const j = openJournal({ dir: tempDir(), clock });
    const { at: _, ...rest } = entry();
    j.append(rest);
    clock.advance(5000);
    j.append(rest);
    expect(j.read().map((e) => e.at)).toEqual([clock() - 5000, clock()]);
  });

  it("skips a torn line and keeps reading the rest", () => {
    const dir = tempDir();
    const j = openJournal({ dir });
    j.append(entry({ handle: H(1) }));
    writeFileSync(j.path, `${readFileSync(j.path, "utf8")}{"at":"2026-`, { flag: "w" });
    j.append(entry({ handle: H(2) }));
    // The torn line and the next share a physical line: that line is lost, the journal is not.
    j.append(entry({ handle: H(3) }));
    expect(j.read().map((e) => e.handle)).toEqual([H(1), H(3)]);
  });

  it("never writes through a symlink and never throws", () => {
    const dir = tempDir();
    const target = join(dir, "elsewhere");
    writeFileSync(target, "mine\n");
    symlinkSync(target, join(dir, JOURNAL_FILE));
    const j = openJournal({ dir });
    expect(j.append(entry())).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("mine\n");
    expect(j.read()).toEqual([]);
    const ro = tempDir();
    chmodSync(ro, 0o500);
    if (process.getuid?.() !== 0) expect(openJournal({ dir: ro }).append(entry())).toBe(false);
    expect(openJournal({ dir: join(dir, "missing") }).append(entry())).toBe(false);
  });
});
