// The cross-process lock: a crashed holder never wedges a file, a live one makes us wait at most
// lockTimeoutMs and then answer `busy`, and no lock file is left behind.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it, onTestFinished } from "vitest";
import { deadPid, failure, setup } from "./helpers.js";

const LOCK = ".a.txt.caveman-lock";

function holder(pid: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ pid, host: hostname(), ns: nsOf(), start: "", tid: 0, at: Date.now(), ...extra });
}

function nsOf(): string {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return "";
  }
}

describe("cross-process file lock", () => {
  it("leaves no lock or temp file behind after edits", async () => {
    const { editor, file, root } = setup();
    file("a.txt", "one\n");
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    await editor.replace({ path: "a.txt:1", content: "uno" });
    await editor.undo({ path: "a.txt" });
    expect(readdirSync(root)).toEqual(["a.txt"]);
  });

  it("breaks the lock of a crashed holder at once", async () => {
    const { editor, file, abs, root, text } = setup();
    file("a.txt", "one\n");
    writeFileSync(abs(LOCK), holder(deadPid()));
    const t0 = performance.now();
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(text("a.txt")).toBe("one\ntwo\n");
    expect(readdirSync(root)).toEqual(["a.txt"]);
  });

  it("waits for a live holder at most lockTimeoutMs, then answers busy and writes nothing", async () => {
    const { editor, file, abs, text } = setup({ lockTimeoutMs: 300 });
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    onTestFinished(() => {
      child.kill();
    });
    file("a.txt", "one\n");
    writeFileSync(abs(LOCK), holder(child.pid!));
    const t0 = performance.now();
    const err = await failure(editor.insert({ path: "a.txt", after_line: 1, content: "two" }));
    expect(err.code).toBe("busy");
    expect(err.message).toContain(`process ${child.pid}`);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    expect(text("a.txt")).toBe("one\n");
    // The live holder's lock is left alone; reads and previews never wait for it.
    expect(JSON.parse(readFileSync(abs(LOCK), "utf8")).pid).toBe(child.pid);
    expect((await editor.read({ path: "a.txt" })).total_lines).toBe(1);
    expect(
      (await editor.insert({ path: "a.txt", after_line: 1, content: "two", preview: true })).written,
    ).toBe(false);
  });

  it("treats an empty lock file as held while it is fresh and as stale once old", async () => {
    const { editor, file, abs, text } = setup({ lockTimeoutMs: 200 });
    file("a.txt", "one\n");
    writeFileSync(abs(LOCK), "");
    expect((await failure(editor.insert({ path: "a.txt", after_line: 1, content: "two" }))).code).toBe(
      "busy",
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(abs(LOCK), old, old);
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    expect(text("a.txt")).toBe("one\ntwo\n");
  });

  it("breaks a lock of another host only after it is a minute old", async () => {
    const { editor, file, abs, text } = setup({ lockTimeoutMs: 200 });
    file("a.txt", "one\n");
    writeFileSync(abs(LOCK), holder(1, { host: "elsewhere.example" }));
    const err = await failure(editor.insert({ path: "a.txt", after_line: 1, content: "two" }));
    expect(err.message).toContain("on elsewhere.example");
    writeFileSync(abs(LOCK), holder(1, { host: "elsewhere.example", at: Date.now() - 120_000 }));
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    expect(text("a.txt")).toBe("one\ntwo\n");
  });
});

describe("crash leftovers", () => {
  it("an edit removes temp files that crashed writers left in its directory, at once", async () => {
    const { editor, file, abs, root } = setup();
    file("a.txt", "one\n");
    const dead = deadPid();
    writeFileSync(abs(`.a.txt.${dead}-0123456789abcdef.caveman-tmp`), "x".repeat(1 << 20));
    writeFileSync(abs(`.b.txt.${dead}-0123456789abcdef.caveman-tmp`), "x");
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    expect(readdirSync(root)).toEqual(["a.txt"]);
  });

  it("an edit removes locks that crashed processes left on other files, and keeps live ones", async () => {
    const { editor, file, abs, root } = setup();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    onTestFinished(() => {
      child.kill();
    });
    file("a.txt", "one\n");
    writeFileSync(abs(".b.txt.caveman-lock"), holder(deadPid()));
    writeFileSync(abs(".c.txt.caveman-lock"), holder(child.pid!));
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    expect(readdirSync(root).sort()).toEqual([".c.txt.caveman-lock", "a.txt"]);
  });
});

describe("processes killed in the middle of edits", () => {
  it("never wedge the file: the next edit goes through at once and leaves no lock or temp file", async () => {
    const { editor, file, root, journalDir, text } = setup({ lockTimeoutMs: 2000 });
    file("shared.txt", "base\n");
    const worker = join(import.meta.dirname, "fixtures", "edit-worker.mjs");
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, [
        worker,
        root,
        journalDir,
        join(root, "shared.txt"),
        String(round),
        "100000",
      ]);
      // Let it get going (imports, first edits), then kill it without warning, mid-edit.
      await new Promise((r) => setTimeout(r, 400 + round * 97));
      child.kill("SIGKILL");
      await new Promise((r) => child.on("exit", r));
    }
    // Usually a lock (and sometimes a temp file) of a killed worker is left here now.
    const t0 = performance.now();
    await editor.insert({ path: "shared.txt", after_line: 0, content: "after the kills" });
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(text("shared.txt").startsWith("after the kills\n")).toBe(true);
    expect(readdirSync(root)).toEqual(["shared.txt"]);
  });
});

describe("user files whose names look like locks", () => {
  const aged = (path: string) => {
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
  };

  it("an edit beside a user's `.x.caveman-lock` file keeps that file", async () => {
    const { editor, file, abs, root, text } = setup();
    file("a.txt", "one\n");
    aged(file(".notes.caveman-lock", "my own notes\n"));
    await editor.insert({ path: "a.txt", after_line: 1, content: "two" });
    expect(readdirSync(root).sort()).toEqual([".notes.caveman-lock", "a.txt"]);
    expect(text(".notes.caveman-lock")).toBe("my own notes\n");
    expect(readFileSync(abs("a.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("a file literally named `.x.caveman-lock` can itself be edited, and is not lost", async () => {
    const { editor, file, text } = setup();
    aged(file(".notes.caveman-lock", "my own notes\n"));
    await editor.insert({ path: ".notes.caveman-lock", after_line: 1, content: "more" });
    expect(text(".notes.caveman-lock")).toBe("my own notes\nmore\n");
  });

  it("a user's file at the lock name is never removed: the edit is refused at once", async () => {
    const { editor, file, abs, text } = setup({ lockTimeoutMs: 5000 });
    file("a.txt", "one\n");
    aged(file(LOCK, "not a lock\n"));
    const t0 = performance.now();
    const err = await failure(editor.insert({ path: "a.txt", after_line: 1, content: "two" }));
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(err.code).toBe("conflict");
    expect(err.message).toContain(LOCK);
    expect(text(LOCK)).toBe("not a lock\n");
    expect(readFileSync(abs("a.txt"), "utf8")).toBe("one\n");
  });

  it("a symbolic link planted at the lock name is refused at once, and its target is untouched", async () => {
    const { editor, file, abs, text } = setup({ lockTimeoutMs: 5000 });
    const outside = join(tempDir("edit-ops-outside-"), "outside.txt");
    writeFileSync(outside, "outside\n");
    file("a.txt", "one\n");
    symlinkSync(outside, abs(LOCK));
    const t0 = performance.now();
    const err = await failure(editor.insert({ path: "a.txt", after_line: 1, content: "two" }));
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(err.code).toBe("conflict");
    expect(err.message).toContain(LOCK);
    expect(readFileSync(outside, "utf8")).toBe("outside\n");
    expect(readlinkSync(abs(LOCK))).toBe(outside);
    expect(text("a.txt")).toBe("one\n");
  });
});
