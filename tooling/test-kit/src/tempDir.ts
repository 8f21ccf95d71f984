// Temp directories for tests: real directories under the OS temp dir, by their real path (macOS
// puts tmpdir behind a symlink, and confinement checks compare real paths), always removed.
//
// `tempDir` removes its directory when the current test finishes; called outside a running test
// (at collection, in a describe block) it removes it after the enclosing suite instead. A
// `scratchDir` is removed when its owner says so (a store must close before its directory goes).
// Whatever a test file leaves behind is removed when that file's tests are done (vitest ends its
// worker processes with SIGTERM, so a process "exit" hook alone never runs there), and at process
// exit outside vitest, so nothing leaks.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, onTestFinished } from "vitest";

/** A temp directory whose removal the caller controls. */
export interface ScratchDir {
  /** Real path of the directory. */
  readonly dir: string;
  /** Remove the directory and everything in it. Safe to call twice. */
  cleanup(): void;
}

const pending = new Set<string>();
let exitHookInstalled = false;

// A child process may still be writing as we remove its directory; rmSync retries ENOTEMPTY/EBUSY.
// Forgotten only once gone, so a removal that failed is tried again at exit.
function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  pending.delete(dir);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Too late to report a failed removal anywhere useful: the process is exiting.
  process.once("exit", sweep);
}

function sweep(): void {
  for (const dir of [...pending]) {
    try {
      remove(dir);
    } catch {
      // Left in `pending`: the exit hook tries again.
    }
  }
}

// Evaluated while vitest collects the test file that imports this module (each file gets its own
// module instance), so this registers on the file's root suite. Root after-hooks unwind as a
// stack, and this one is registered before any of the file's own, so it runs after them: every
// owner has closed its store and had its chance to clean up before the sweep. Outside a vitest
// collection afterAll throws and only the exit hook applies.
try {
  afterAll(sweep);
} catch {}

/** A fresh private directory named `<prefix>XXXXXX`; remove it with `cleanup()`. */
export function scratchDir(prefix = "caveman-test-"): ScratchDir {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  pending.add(dir);
  installExitHook();
  return {
    dir,
    cleanup: () => {
      if (pending.has(dir)) remove(dir);
    },
  };
}

/** A fresh private directory, removed when the current test (or, outside a test, suite) ends. */
export function tempDir(prefix = "caveman-test-"): string {
  const scratch = scratchDir(prefix);
  try {
    onTestFinished(scratch.cleanup);
  } catch {
    // Not inside a running test: tie it to the suite being collected. If that is not possible
    // either (a beforeAll, a global setup), the exit hook above still removes it.
    try {
      afterAll(scratch.cleanup);
    } catch {}
  }
  return scratch.dir;
}
