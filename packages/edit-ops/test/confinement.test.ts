import { constants } from "node:buffer";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir, tempDir } from "@caveman/test-kit";
import { describe, expect, it, onTestFinished } from "vitest";
import { createEditor } from "../src/index.js";
import { failure, setup } from "./helpers.js";

function outsideDir() {
  const d = tempDir("edit-ops-outside-");
  writeFileSync(join(d, "secret.txt"), "secret\n");
  return d;
}

describe("confinement", () => {
  it("resolves relative paths from the first root and accepts absolute paths inside a root", async () => {
    const { editor, file, abs } = setup();
    file("a.txt", "x\n");
    expect((await editor.read({ path: "a.txt" })).path).toBe(abs("a.txt"));
    expect((await editor.read({ path: abs("a.txt") })).path).toBe(abs("a.txt"));
    expect((await editor.read({ path: `file://${abs("a.txt")}:1` })).numbered).toBe("1\tx");
  });

  it("refuses .. traversal and absolute paths outside, listing the allowed roots", async () => {
    const { editor, root } = setup();
    const out = outsideDir();
    const err = await failure(editor.read({ path: `../${out.split("/").pop()}/secret.txt` }));
    expect(err.code).toBe("outside_roots");
    expect(err.message).toContain(root);
    expect(err.details.roots).toEqual([root]);
    expect((await failure(editor.write({ path: join(out, "new.txt"), content: "x" }))).code).toBe(
      "outside_roots",
    );
    expect((await failure(editor.read({ path: join(root, "..", "x") }))).code).toBe("outside_roots");
  });

  it("accepts names that merely start with ..", async () => {
    const { editor, text } = setup();
    await editor.write({ path: "..hidden", content: "ok\n" });
    await editor.write({ path: "...", content: "dots\n" });
    expect(text("..hidden")).toBe("ok\n");
    expect(text("...")).toBe("dots\n");
  });

  it("refuses a symlink that points out, for reads and writes, and leaves the target alone", async () => {
    const { editor, abs } = setup();
    const out = outsideDir();
    symlinkSync(join(out, "secret.txt"), abs("escape.txt"));
    symlinkSync(out, abs("escape-dir"));
    expect((await failure(editor.read({ path: "escape.txt" }))).code).toBe("outside_roots");
    expect((await failure(editor.replace({ path: "escape.txt:1", content: "pwned" }))).code).toBe(
      "outside_roots",
    );
    expect((await failure(editor.write({ path: "escape-dir/new.txt", content: "x" }))).code).toBe(
      "outside_roots",
    );
    expect(
      (await failure(editor.write({ path: "escape-dir/deep/new.txt", content: "x", create_dirs: true })))
        .code,
    ).toBe("outside_roots");
    expect(readFileSync(join(out, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("allows a symlink that stays inside the roots, also into a second root", async () => {
    const { root, journalDir } = setup();
    const second = outsideDir();
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "f.txt"), "in\n");
    symlinkSync(join(root, "sub"), join(root, "via"));
    symlinkSync(join(second, "secret.txt"), join(root, "to-second"));
    const editor = createEditor({ roots: [root, second], journalDir });
    expect((await editor.read({ path: "via/f.txt" })).content).toBe("in\n");
    await editor.replace({ path: "to-second:1", content: "shared" });
    expect(readFileSync(join(second, "secret.txt"), "utf8")).toBe("shared\n");
  });

  it("refuses a dangling symlink instead of creating its target, and a loop of links", async () => {
    const { editor, abs, root } = setup();
    symlinkSync(abs("missing-target.txt"), abs("dangling"));
    expect((await failure(editor.write({ path: "dangling", content: "x" }))).code).toBe("not_found");
    symlinkSync(abs("loop-b"), abs("loop-a"));
    symlinkSync(abs("loop-a"), abs("loop-b"));
    const loop = await failure(editor.write({ path: "loop-a", content: "x" }));
    expect(loop.code).toBe("invalid_argument");
    expect(loop.message).toContain("loop");
    expect((await failure(editor.read({ path: "loop-a/inner.txt" }))).code).toBe("invalid_argument");
    expect(readdirSync(root).sort()).toEqual(["dangling", "loop-a", "loop-b"]);
  });

  it("calls a link to a pipe (/dev/stdin) not a regular file, not a dangling symlink", async () => {
    const { editor, abs, journalDir } = setup();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 10000)"], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    onTestFinished(() => {
      child.kill();
    });
    const fd = (child.stdin as unknown as { _handle: { fd: number } })._handle.fd;
    symlinkSync(`/proc/self/fd/${fd}`, abs("pipe-link"));
    for (const err of [
      await failure(editor.read({ path: "pipe-link" })),
      await failure(createEditor({ roots: ["/"], journalDir }).read({ path: "/dev/stdin" })),
    ]) {
      expect(err.message).not.toContain("does not exist");
      expect(err.code).toBe("invalid_argument");
      expect(err.message).toContain("not a regular file");
    }
  });

  it("refuses a path that names a directory instead of creating a file named like it", async () => {
    const { editor, root } = setup();
    for (const path of ["newdir/", "newdir/.", "./", "sub/..", `${root}/`]) {
      const err = await failure(editor.write({ path, content: "x", create_dirs: true }));
      expect(`${path}: ${err.code}`).toBe(`${path}: invalid_argument`);
      expect(err.message).toContain("directory");
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it("refuses Windows absolute paths on POSIX instead of creating `C:\\…` inside the root", async () => {
    const { editor, root } = setup();
    for (const path of [
      "C:\\Users\\me\\a.txt",
      "c:/work/a.txt",
      "file:///C:/work/a.txt",
      "\\\\server\\share\\a.txt",
    ]) {
      const err = await failure(editor.write({ path, content: "x", create_dirs: true }));
      expect(`${path}: ${err.code}`).toBe(`${path}: outside_roots`);
      expect(err.details.roots).toEqual([root]);
    }
    expect(readdirSync(root)).toEqual([]);
    // A name with a colon that is not a drive is an ordinary file name.
    await editor.write({ path: "a:b.txt", content: "ok\n" });
    expect(readdirSync(root)).toEqual(["a:b.txt"]);
  });

  it("edits through a root that is itself a symlink, by the link's path and by the real one", async () => {
    const { journalDir } = setup();
    const real = outsideDir();
    const link = join(outsideDir(), "root-link");
    symlinkSync(real, link);
    const editor = createEditor({ roots: [link], journalDir });
    await editor.replace({ path: "secret.txt:1", content: "via link" });
    expect(readFileSync(join(real, "secret.txt"), "utf8")).toBe("via link\n");
    expect((await editor.read({ path: join(real, "secret.txt") })).content).toBe("via link\n");
    await editor.undo({ path: join(link, "secret.txt") });
    expect(readFileSync(join(real, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("reads percent-encoded file URIs with a position", async () => {
    const { editor, file, root } = setup();
    file("a b%.txt", "one\ntwo\n");
    expect((await editor.read({ path: `file://${root}/a%20b%25.txt:2` })).numbered).toBe("2\ttwo");
    expect((await editor.read({ path: `file://${root}/a%20b%25.txt#L1` })).numbered).toBe("1\tone");
  });

  it("refuses roots that are relative or missing", () => {
    expect(() => createEditor({ roots: ["relative"], journalDir: "/tmp/j" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => createEditor({ roots: ["/definitely/not/here"], journalDir: "/tmp/j" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
    expect(() => createEditor({ roots: [], journalDir: "/tmp/j" })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });

  it("refuses a maxFileBytes past the longest string Node can hold", () => {
    const { root } = setup();
    expect(() =>
      createEditor({ roots: [root], journalDir: "/tmp/j", maxFileBytes: constants.MAX_STRING_LENGTH + 1 }),
    ).toThrow(expect.objectContaining({ code: "invalid_argument" }));
  });
});

describe("directories we may search but not list", () => {
  it("reads a file in a directory with mode --x (opened O_PATH)", async () => {
    const { mkdirSync: mk, writeFileSync: wf, chmodSync } = await import("node:fs");
    const { dir: base, cleanup } = scratchDir("edit-ops-sealed-");
    // A directory we may not list cannot be emptied: open it up again before removing it.
    onTestFinished(() => {
      chmodSync(join(base, "sealed"), 0o755);
      cleanup();
    });
    chmodSync(base, 0o755);
    mk(join(base, "sealed"));
    wf(join(base, "sealed", "f.txt"), "inside\n", { mode: 0o644 });
    chmodSync(join(base, "sealed"), 0o111);
    // Root ignores directory permissions, so the check runs as an unprivileged user when root.
    const script = `
      if (process.getuid() === 0) { process.setgid(65534); process.setuid(65534); }
      const { createEditor } = await import(${JSON.stringify(join(import.meta.dirname, "..", "dist", "index.js"))});
      const editor = createEditor({ roots: [${JSON.stringify(base)}], journalDir: "/nonexistent-journal" });
      const r = await editor.read({ path: "sealed/f.txt" });
      process.stdout.write(r.content);`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("inside\n");
  });
});
