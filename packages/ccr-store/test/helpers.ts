// Shared test helpers: real temp directories, a hand-moved clock and running the bundled child
// worker, built on @caveman/test-kit under the names this package's tests use.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeClock, fakeClock, spawnLines } from "@caveman/test-kit";
import { CHILD_DIR } from "./setup/build-children.js";

// tempDir: `{ dir, cleanup }`, removed by the test once its store has closed.
export { parseJsonLines as parseLines, scratchDir as tempDir } from "@caveman/test-kit";

/** sha256 of a file's bytes: proves a refused open changed nothing. */
export function fileHash(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** A clock the test moves by hand, starting where these tests' expectations were written. */
export function manualClock(start = 1_700_000_000_000): FakeClock {
  return fakeClock(start);
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: unknown[];
  stderr: string;
}

/** Run the worker to completion and parse each whole stdout line as JSON. */
export async function runWorker(args: string[], driver?: string): Promise<ChildResult> {
  const child = spawnLines(process.execPath, [join(CHILD_DIR, "worker.mjs"), ...args], {
    stdin: "ignore",
    env: driver === undefined ? process.env : { ...process.env, CCR_WORKER_DRIVER: driver },
  });
  const { code, signal } = await child.closed;
  return { code, signal, lines: child.values(), stderr: child.stderr() };
}

export { CHILD_DIR };

/** Run the team child (test/children/team.ts) to completion; its last stdout line, parsed. */
export async function runTeamChild(args: string[]): Promise<ChildResult & { last: unknown }> {
  const child = spawnLines(process.execPath, [join(CHILD_DIR, "team.mjs"), ...args], { stdin: "ignore" });
  const { code, signal } = await child.closed;
  const lines = child.values();
  return { code, signal, lines, stderr: child.stderr(), last: lines[lines.length - 1] };
}
