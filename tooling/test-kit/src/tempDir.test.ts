import { existsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { scratchDir, tempDir } from "./tempDir.js";

describe("tempDir", () => {
  let fromTest = "";
  it("gives a fresh real directory under the temp dir", () => {
    fromTest = tempDir("kit-");
    expect(statSync(fromTest).isDirectory()).toBe(true);
    expect(fromTest.startsWith(join(tmpdir(), "kit-")) || fromTest.includes("kit-")).toBe(true);
    writeFileSync(join(fromTest, "f"), "x");
  });
  it("removed it when the previous test finished", () => {
    expect(fromTest).not.toBe("");
    expect(existsSync(fromTest)).toBe(false);
  });
});

describe("tempDir from a beforeEach", () => {
  let dir = "";
  const seen: string[] = [];
  beforeEach(() => {
    dir = tempDir("kit-each-");
  });
  it("exists during the test", () => {
    seen.push(dir);
    expect(existsSync(dir)).toBe(true);
  });
  it("is gone after the test that made it", () => {
    expect(existsSync(dir)).toBe(true);
    expect(existsSync(seen[0] as string)).toBe(false);
  });
});

describe("tempDir at collection", () => {
  const shared = tempDir("kit-suite-");
  it("lives across the tests of its suite", () => {
    writeFileSync(join(shared, "a"), "1");
  });
  it("is still there for the next test", () => {
    expect(existsSync(join(shared, "a"))).toBe(true);
  });
  afterAll(() => {
    // Registered after tempDir's own afterAll, so it runs first (hooks unwind as a stack).
    expect(existsSync(shared)).toBe(true);
  });
});

describe("scratchDir", () => {
  it("is removed by cleanup, and a second cleanup is harmless", () => {
    const s = scratchDir("kit-scratch-");
    writeFileSync(join(s.dir, "f"), "x");
    s.cleanup();
    expect(existsSync(s.dir)).toBe(false);
    s.cleanup();
  });
});

// The kit's end-of-file sweep is registered when this file imports it, before this hook, so it
// runs after this hook: an owner's own root-level cleanup still finds its directory.
const ownedToTheEnd = scratchDir("kit-owned-");
afterAll(() => {
  expect(existsSync(ownedToTheEnd.dir)).toBe(true);
  ownedToTheEnd.cleanup();
});
