// A scratch dir its owner forgot is still removed when the test file ends, in a real vitest
// worker: vitest stops its workers with SIGTERM, so a process "exit" hook alone never runs there.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { spawnLines } from "../src/spawn.js";
import { tempDir } from "../src/tempDir.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixture = resolve(here, "fixtures", "forgotten");
const vitestCli = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");

it("removes a forgotten scratch dir once its test file has finished", async () => {
  const out = join(tempDir("kit-forgotten-out-"), "dir.txt");
  const run = spawnLines(
    process.execPath,
    [vitestCli, "run", "--config", join(fixture, "vitest.config.ts")],
    {
      cwd: fixture,
      env: { ...process.env, KIT_FORGOTTEN_OUT: out },
      stdin: "ignore",
    },
  );
  const end = await run.closed;
  expect(end.code, `${run.lines.join("\n")}\n${run.stderr()}`).toBe(0);
  const forgotten = readFileSync(out, "utf8");
  expect(forgotten).toContain("kit-forgotten-");
  expect(existsSync(forgotten)).toBe(false);
}, 120_000);
