import { openMemoryStore } from "@caveman/ccr-store";
import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { DISTINCT_RETRIEVE_LIMIT, Session } from "../session.js";
import { createCavemanTools } from "./index.js";

const signal = new AbortController().signal;
const log = Array.from({ length: 1200 }, (_, i) =>
  i === 900
    ? "2026-11-30T10:15:00Z ERROR payment declined for order 4821"
    : `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO GET /api/items/${i} 200 user=u${i % 13}`,
).join("\n");

function setup(pageTokens = 2000) {
  const ccr = openMemoryStore();
  const tools = createCavemanTools({
    families: ["retrieve"],
    session: new Session(),
    ccr,
    store: { backend: "memory" },
    retrievePageTokens: pageTokens,
  });
  const reg = new ToolRegistry({ tools, logger: silentLogger, maxResultBytes: 1 << 24 });
  const call = async (recovery_handle: string, query?: string) => {
    const r = await reg.callTool(
      "caveman_retrieve",
      { recovery_handle, ...(query ? { query } : {}) },
      { signal },
    );
    return r.content.map((b) => (b.type === "text" ? b.text : ""));
  };
  return { ccr, call };
}

describe("caveman_retrieve in process", () => {
  it("pages a full retrieve over one page: page 1 and how to ask on, then page:N; the pages rebuild the original", async () => {
    const { ccr, call } = setup();
    const { handle } = await ccr.put(log);
    const [first, note] = await call(handle);
    const m = /^\[caveman: page 1 of (\d+) \(lines 1-(\d+)\); next: "page:2"\]$/.exec(note ?? "");
    expect(m, note).not.toBeNull();
    const pages = Number(m![1]);
    expect(countTokens(first!)).toBeLessThanOrEqual(2000);
    let all = first!;
    for (let p = 2; p <= pages; p++) {
      const [page, pnote] = await call(handle, `page:${p}`);
      expect(pnote).toMatch(new RegExp(`^\\[caveman: page ${p} of ${pages} `));
      all += page;
    }
    expect(all).toBe(log);
    expect((await call(handle, `page:${pages + 1}`))[0]).toMatch(/no page/);
  });

  it("returns an original within one page whole, with no note", async () => {
    const { ccr, call } = setup(100_000);
    const { handle } = await ccr.put(log);
    expect(await call(handle)).toEqual([log]);
  });

  it("answers a query with a grep view in the output block alone, and pages of it do not count as new queries", async () => {
    const { ccr, call } = setup();
    const { handle } = await ccr.put(log);
    const [view, ...notes] = await call(handle, "payment declined");
    expect(notes).toEqual([]);
    expect(view).toContain("901:2026-11-30T10:15:00Z ERROR payment declined for order 4821");
    for (let i = 0; i < DISTINCT_RETRIEVE_LIMIT; i++) await call(handle, `user=u${i}`);
    for (let p = 2; p <= 4; p++) expect((await call(handle, `user=u1 page:${p}`))[0]).toMatch(/^\d+[:-]/);
    // Past the limit, an original over FORCED_FULL_MAX_TOKENS is still narrowed.
    const [after] = await call(handle, "user=u9");
    expect(after).toMatch(/^\d+[:-]/);
    expect(countTokens(after!)).toBeLessThanOrEqual(400);
  });
});
