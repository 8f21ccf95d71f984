// caveman_retrieve through the real binary and the SDK Client: a full retrieve of an original over
// one page comes back in byte-exact pages under the host's result limit, and a query comes back
// as a grep-like view inside the view budget, with the query for the rest.
import { countTokens } from "gpt-tokenizer";
import { afterEach, describe, expect, it } from "vitest";
import { allText, connect, handleIn, type Sandbox, sandbox, text } from "./helpers.js";

type Closer = { close(): Promise<void> };
const open: Closer[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function client(box: Sandbox) {
  const c = await connect(box);
  open.push(c.client);
  return c.client;
}

// About 300 KB and 80,000 o200k tokens: over Claude Code's 25,000-token MCP result limit.
const log = Array.from({ length: 4000 }, (_, i) =>
  i === 2500
    ? "2026-11-30T10:41:07Z ERROR payment declined for order 4821 (card_expired)\n    at charge (src/pay.ts:88:11)"
    : `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO GET /api/orders/${i} 200 in ${(i * 37) % 900} ms user=u${i % 97}`,
).join("\n");

const PAGE_NOTE = /^\[caveman: page (\d+) of (\d+) \(lines (\d+)-(\d+)\)(?:; next: "page:(\d+)")?\]$/;

async function stored(box: Sandbox): Promise<{ c: Awaited<ReturnType<typeof client>>; handle: string }> {
  const c = await client(box);
  const r = await c.callTool({ name: "caveman_compress", arguments: { input: log, hint: "log" } });
  const handle = handleIn(r);
  if (!handle) throw new Error(`no handle in ${allText(r).slice(0, 300)}`);
  return { c, handle };
}

describe("caveman_retrieve (real process)", () => {
  it("pages a full retrieve over the host limit; the pages concatenate to the original byte for byte", async () => {
    const { c, handle } = await stored(sandbox());
    const first = await c.callTool({ name: "caveman_retrieve", arguments: { recovery_handle: handle } });
    expect(first.isError).toBeFalsy();
    const blocks = (first.content as Array<{ text: string }>).map((b) => b.text);
    expect(blocks).toHaveLength(2);
    const m = PAGE_NOTE.exec(blocks[1]!);
    expect(m, blocks[1]).not.toBeNull();
    const pages = Number(m![2]);
    expect(pages).toBeGreaterThan(1);
    expect(m![5]).toBe("2");
    let all = blocks[0]!;
    expect(countTokens(all)).toBeLessThanOrEqual(20_000);
    for (let p = 2; p <= pages; p++) {
      const r = await c.callTool({
        name: "caveman_retrieve",
        arguments: { recovery_handle: handle, query: `page:${p}` },
      });
      const [page, note] = (r.content as Array<{ text: string }>).map((b) => b.text);
      expect(countTokens(page!)).toBeLessThanOrEqual(20_000);
      expect(PAGE_NOTE.exec(note!)?.[1]).toBe(String(p));
      all += page;
    }
    expect(all).toBe(log);
    // A page asked again is a pointer, not a second copy.
    const again = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "page:2" },
    });
    expect(text(again)).toMatch(/already returned in this session/);
  });

  it("answers a query like grep -n -C1, inside about 400 tokens, and says how to get the rest", async () => {
    const { c, handle } = await stored(sandbox());
    const hit = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "payment declined" },
    });
    expect(text(hit)).toBe(
      [
        `2500-${log.split("\n")[2499]}`,
        "2501:2026-11-30T10:41:07Z ERROR payment declined for order 4821 (card_expired)",
        "2502-    at charge (src/pay.ts:88:11)",
      ].join("\n"),
    );
    const many = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "user=u7" },
    });
    const view = text(many);
    expect(countTokens(view)).toBeLessThanOrEqual(400);
    expect(view.split("\n").at(-1)).toMatch(
      /^\[caveman: \d+ matches skipped \(lines \d+-\d+\); next: "user=u7 page:2"\]$/,
    );
    const next = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "user=u7 page:2" },
    });
    expect(text(next)).toMatch(/^\d+[:-]/);
    const span = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "lines:10-12" },
    });
    expect(text(span)).toBe(log.split("\n").slice(9, 12).join("\n"));
    const re = await c.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: handle, query: "/card_\\w+\\)$/" },
    });
    expect(text(re)).toContain("2501:");
  });
});
