// Shared test setup: a real temp root and journal directory per test, removed when it finishes.

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { createEditor, type EditorOptions, isEditError } from "../src/index.js";

export function setup(opts: Partial<EditorOptions> = {}) {
  const root = tempDir("edit-ops-root-");
  const journalDir = tempDir("edit-ops-journal-");
  const editor = createEditor({ roots: [root], journalDir, ...opts });
  const abs = (name: string) => join(root, name);
  const file = (name: string, content: string | Uint8Array) => {
    writeFileSync(abs(name), content);
    return abs(name);
  };
  const bytes = (name: string) => readFileSync(abs(name));
  const text = (name: string) => readFileSync(abs(name), "utf8");
  return { root, journalDir, editor, abs, file, bytes, text };
}

/** Await a promise that must fail with an EditError; returns it. */
export async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isEditError(err)) return err;
    throw err;
  }
  throw new Error("expected the operation to fail with an EditError, but it succeeded");
}

export function lines(n: number, make = (i: number) => `line ${i}`): string {
  let out = "";
  for (let i = 1; i <= n; i++) out += `${make(i)}\n`;
  return out;
}

/** The pid of a process that has exited, so certainly not running now. */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(r.stdout.toString());
}
