// Shared test helpers: real temp directories, and running the bundled child worker.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHILD_DIR } from "./setup/build-children.js";

/** A fresh private temp directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "ccr-store-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** sha256 of a file's bytes: proves a refused open changed nothing. */
export function fileHash(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** A clock the test moves by hand. */
export function manualClock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: unknown[];
  stderr: string;
}

/** Run the worker to completion and parse each whole stdout line as JSON. */
export function runWorker(args: string[], driver?: string): Promise<ChildResult> {
  const child = spawn(process.execPath, [join(CHILD_DIR, "worker.mjs"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: driver === undefined ? process.env : { ...process.env, CCR_WORKER_DRIVER: driver },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString("utf8");
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, lines: parseLines(stdout), stderr }));
  });
}

/** Parse complete JSON lines; a trailing partial line (a killed writer) is ignored. */
export function parseLines(text: string): unknown[] {
  const whole = text.slice(0, text.lastIndexOf("\n") + 1);
  return whole
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as unknown);
}

export { CHILD_DIR };
