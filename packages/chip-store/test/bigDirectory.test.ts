// Opening a directory that holds far more chips than the capacity (another process with a larger
// capacity, or years of leftovers): the newest survive, the rest are evicted, expired chips never
// push a live one out, and the work stays roughly linear.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { openChipStore } from "../src/index.js";

const base = Date.UTC(2026, 0, 1);
function writeChip(dir: string, n: number, expires?: number): string {
  // Ids are shuffled against age, so directory order says nothing about created_at order.
  const id = ((n * 7919) % 0xffffff).toString(16).padStart(6, "0");
  const rec: Record<string, unknown> = {
    id,
    tool: "t",
    args: { content: `chip number ${n}`.padEnd(80, ".") },
    created_at: new Date(base + n * 1000).toISOString(),
  };
  if (expires !== undefined) rec.expires_at = new Date(expires).toISOString();
  writeFileSync(join(dir, `chip-${id}.json`), JSON.stringify(rec));
  return id;
}

describe("a directory far over capacity", () => {
  it("keeps the newest chips, evicts every other one, and never lets expired chips push live ones out", () => {
    const dir = tempDir("chip-big-");
    const ids: string[] = [];
    for (let n = 0; n < 3000; n++) ids.push(writeChip(dir, n));
    // The 5 newest of all have expired: they must not count against the capacity.
    const now = base + 10_000_000;
    const expiredIds: string[] = [];
    for (let n = 3000; n < 3005; n++) expiredIds.push(writeChip(dir, n, now - 1));
    const store = openChipStore({ dir, capacity: 7, clock: () => now });
    expect(store.list().map((c) => c.id)).toEqual(ids.slice(-7));
    expect([...store.loadReport.evicted].sort()).toEqual(ids.slice(0, -7).sort());
    expect([...store.loadReport.expired].sort()).toEqual([...expiredIds].sort());
    expect(readdirSync(dir).sort()).toEqual(
      ids
        .slice(-7)
        .map((id) => `chip-${id}.json`)
        .sort(),
    );
    expect(store.replay(ids.at(-1) as string)).toBe("chip number 2999".padEnd(80, "."));
  });
});
