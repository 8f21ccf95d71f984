import { describe, expect, it } from "vitest";
import type { SavingsEntry } from "./entry.js";
import { startOfLocalDay, summarize } from "./summary.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 30, 12);
const H = `ccr_${"a".repeat(32)}`;
const kept = (
  at: number,
  kind: string,
  tokensIn: number,
  tokensOut: number,
  session?: string,
): SavingsEntry => ({
  at,
  event: "kept",
  tool: "Bash",
  kind,
  tokensIn,
  tokensOut,
  handle: H,
  ...(session ? { session } : {}),
});
const got = (at: number, kind: string, tokens: number, session?: string): SavingsEntry => ({
  ...kept(at, kind, 0, tokens, session),
  event: "retrieved",
  tool: "caveman_retrieve",
});

describe("summarize", () => {
  const entries = [
    kept(NOW - 3 * DAY, "json", 5000, 500, "old"),
    kept(NOW - 1000, "log", 80_000, 300, "s2"),
    got(NOW - 500, "log", 1200, "s2"),
    kept(NOW - 100, "diff", 9000, 2000, "s2"),
  ];

  it("nets retrieves out per kind and per window, largest saving first", () => {
    const s = summarize(entries, { dayStart: NOW - 10_000 });
    expect(s.today.saved).toBe(80_000 - 300 - 1200 + 9000 - 2000);
    expect(s.today.kinds.map((k) => [k.kind, k.saved])).toEqual([
      ["log", 78_500],
      ["diff", 7000],
    ]);
    expect(s.today.kinds[0]).toMatchObject({ kept: 1, retrieves: 1, retrievedTokens: 1200 });
    expect(s.all.kept).toBe(3);
    expect(s.all.saved).toBe(s.today.saved + 4500);
  });

  it("takes the newest entry's session unless one is named, and a named one may be empty", () => {
    expect(summarize(entries, { dayStart: 0 }).session).toMatchObject({ id: "s2", kept: 2 });
    expect(summarize(entries, { dayStart: 0, session: "old" }).session).toMatchObject({ saved: 4500 });
    expect(summarize(entries, { dayStart: 0, session: "none" }).session).toMatchObject({
      kept: 0,
      kinds: [],
    });
    expect(summarize([], { dayStart: 0 }).session).toBeNull();
    const outOfOrder = [...entries.slice(1), entries[0]!];
    expect(summarize(outOfOrder, { dayStart: 0 }).session).toMatchObject({ id: "s2" });
  });

  it("shows a session that retrieved more than it saved as a loss", () => {
    const s = summarize([kept(NOW, "log", 1000, 700, "x"), got(NOW, "log", 1000, "x")], { dayStart: 0 });
    expect(s.session!.saved).toBe(-700);
  });

  it("starts today at local midnight", () => {
    const start = startOfLocalDay(NOW);
    expect(start).toBeLessThanOrEqual(NOW);
    expect(NOW - start).toBeLessThan(DAY);
    expect(new Date(start).getHours()).toBe(0);
  });
});
