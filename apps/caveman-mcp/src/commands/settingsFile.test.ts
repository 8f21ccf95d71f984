import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { commitAll, readTarget } from "./settingsFile.js";

describe("commitAll: every file or none", () => {
  it("a rename that fails puts back the file already replaced", () => {
    const dir = tempDir();
    const a = join(dir, "a.json");
    writeFileSync(a, '{"a": 1}\n');
    const ta = readTarget(a);
    // A directory where the second file should be: its temp file is written, its rename fails.
    const b = join(dir, "b.json");
    mkdirSync(join(b, "child"), { recursive: true });
    const tb = { file: b, real: b, text: "{}\n", mode: 0o600 };
    expect(() =>
      commitAll([
        { target: ta, after: '{"a": 2}\n' },
        { target: tb, after: '{"b": 2}\n' },
      ]),
    ).toThrow();
    expect(readFileSync(a, "utf8")).toBe('{"a": 1}\n');
    expect(readdirSync(dir).sort()).toEqual(["a.json", "b.json"]);
  });

  it("a temp file that cannot be made stops it before any file changes", () => {
    const dir = tempDir();
    const a = join(dir, "a.json");
    writeFileSync(a, "{}\n");
    writeFileSync(join(dir, "plain"), "x");
    const inside = join(dir, "plain", "b.json");
    expect(() =>
      commitAll([
        { target: readTarget(a), after: '{"a": 2}\n' },
        { target: { file: inside, real: inside, text: null, mode: undefined }, after: "{}\n" },
      ]),
    ).toThrow();
    expect(readFileSync(a, "utf8")).toBe("{}\n");
    expect(readdirSync(dir).sort()).toEqual(["a.json", "plain"]);
  });
});
