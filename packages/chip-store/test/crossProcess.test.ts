// Two real processes saving into one directory at once.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { tempDir } from "@caveman/test-kit";
import { beforeAll, describe, expect, it } from "vitest";

const fixtures = new URL("./fixtures/", import.meta.url);
const dist = new URL("../dist/index.js", import.meta.url);

function run(script: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL(script, fixtures).pathname, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

beforeAll(() => {
  if (!existsSync(dist))
    throw new Error("dist/ is missing: run `pnpm --filter @caveman/chip-store build` first");
});

interface Saved {
  tag: string;
  saved: { id: string; content: string; warnings: string[] }[];
}

describe("two processes, one directory", () => {
  it("2 x 200 colliding saves lose no chip to an overwrite, and both read every chip", async () => {
    const dir = tempDir("chip-xproc-");
    const [a, b] = await Promise.all([
      run("saver.mjs", [dir, "A", "200", "1000", "narrow"]),
      run("saver.mjs", [dir, "B", "200", "1000", "narrow"]),
    ]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    const results = [JSON.parse(a.out) as Saved, JSON.parse(b.out) as Saved];
    const all = results.flatMap((r) => r.saved);
    expect(new Set(all.map((s) => s.id)).size).toBe(400);
    expect(all.flatMap((s) => s.warnings)).toEqual([]);
    // Only 256 six-hex ids were possible (two fixed bytes), so 400 saves: collisions were real.
    expect(all.some((s) => s.id.length === 12)).toBe(true);
    expect(readdirSync(dir).filter((n) => n.startsWith("chip-"))).toHaveLength(400);

    const [ra, rb] = await Promise.all([run("reader.mjs", [dir, "1000"]), run("reader.mjs", [dir, "1000"])]);
    for (const r of [ra, rb]) {
      expect(r.code, r.err).toBe(0);
      const { chips, skipped } = JSON.parse(r.out) as {
        chips: { id: string; content: string }[];
        skipped: unknown[];
      };
      expect(skipped).toEqual([]);
      const byId = new Map(chips.map((c) => [c.id, c.content]));
      for (const s of all) expect(byId.get(s.id)).toBe(s.content);
    }
  }, 60_000);

  it("with the default capacity, both processes keep the directory bounded and every survivor readable", async () => {
    const d = tempDir("chip-xproc-cap-");
    const [a, b] = await Promise.all([
      run("saver.mjs", [d, "A", "200", "30"]),
      run("saver.mjs", [d, "B", "200", "30"]),
    ]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    const saved = new Map(
      [JSON.parse(a.out) as Saved, JSON.parse(b.out) as Saved].flatMap((r) =>
        r.saved.map((s) => [s.id, s.content]),
      ),
    );
    const files = readdirSync(d).filter((n) => n.startsWith("chip-"));
    // Each process evicts over everything it sees; a save racing another's eviction can leave one extra.
    expect(files.length).toBeLessThanOrEqual(32);
    const r = await run("reader.mjs", [d, "30"]);
    const { chips } = JSON.parse(r.out) as { chips: { id: string; content: string }[] };
    expect(chips.length).toBeGreaterThan(0);
    for (const c of chips) expect(c.content).toBe(saved.get(c.id));
  }, 60_000);
});
