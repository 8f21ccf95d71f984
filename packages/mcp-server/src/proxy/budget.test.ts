import { countTokens } from "@caveman/engine";
import { parseKeptHeader } from "@caveman/keep";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_BUDGET_TOKENS,
  HOST_MCP_LIMIT_TOKENS,
  OVER_LIMIT_BUDGET_TOKENS,
  resultBudget,
} from "./budget.js";
import { harness } from "./relay.test-helpers.js";

type H = ReturnType<typeof harness>;

/** A postgres-like statement log of `lines` lines, with a few distinct errors among them. */
function pgLog(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const t = `2026-11-30 10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.${String((i * 37) % 1000).padStart(3, "0")} UTC`;
    if (i % 211 === 17)
      out.push(
        `${t} [${4000 + (i % 9)}] ERROR:  duplicate key value violates unique constraint "orders_pkey${i % 3}"`,
      );
    else
      out.push(
        `${t} [${4000 + (i % 9)}] LOG:  duration: ${((i * 7919) % 10000) / 100} ms  statement: SELECT id, total FROM orders WHERE customer_id = ${(i * 31) % 977} AND status = 'open'`,
      );
  }
  return `${out.join("\n")}\n`;
}

let nextId = 100;
/** Plays one tools/call through the proxy: the client asks, the server answers `result`. */
async function call(h: H, result: unknown): Promise<{ raw: string; result: Record<string, unknown> }> {
  const id = nextId++;
  h.clientIn.write(
    `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "logs" } })}\n`,
  );
  await h.settle();
  h.serverOut.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
  for (let i = 0; i < 1500; i++) {
    const raw = h.toClient.find((l) => JSON.parse(l).id === id);
    if (raw) return { raw, result: JSON.parse(raw).result };
    await h.settle();
  }
  throw new Error(`no answer to ${id}`);
}

/** The original behind `handle`, through caveman_retrieve on the proxy (page by page when paged). */
async function retrieve(h: H, handle: string): Promise<string> {
  const ask = async (query?: string) => {
    const { result } = await callOurs(h, { recovery_handle: handle, ...(query ? { query } : {}) });
    return (result.content as Array<{ text: string }>).map((b) => b.text);
  };
  const [whole, note] = await ask();
  const paged = note ? /^\[caveman: page 1 of (\d+) /.exec(note) : null;
  if (!paged) return whole!;
  let text = whole!;
  for (let p = 2; p <= Number(paged[1]); p++) text += (await ask(`page:${p}`))[0];
  return text;
}

async function callOurs(h: H, args: Record<string, unknown>) {
  const id = nextId++;
  h.clientIn.write(
    `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "caveman_retrieve", arguments: args } })}\n`,
  );
  for (let i = 0; i < 1500; i++) {
    await h.settle();
    const raw = h.toClient.find((l) => JSON.parse(l).id === id);
    if (raw) return { result: JSON.parse(raw).result as Record<string, unknown> };
  }
  throw new Error(`no answer to ${id}`);
}

/** The one text block of a shrunk result, checked: header with its handle first, within budget. */
function standIn(result: Record<string, unknown>, budget: number): { text: string; handle: string } {
  const blocks = (result.content as Array<{ type: string; text: string }>).filter((b) => b.type === "text");
  expect(blocks).toHaveLength(1);
  const text = blocks[0]!.text;
  const header = parseKeptHeader(text.slice(0, text.indexOf("\n")));
  expect(header).not.toBeNull();
  expect(countTokens(text)).toBeLessThanOrEqual(budget);
  return { text, handle: header!.handle };
}

describe("proxy budgets", () => {
  it("sets the budget from the size the host would show: the stub's cost over its limit, the default under", () => {
    expect(resultBudget("x".repeat(400))).toMatchObject({
      tokens: DEFAULT_BUDGET_TOKENS,
      overHostLimit: false,
    });
    const big = pgLog(3000);
    expect(countTokens(big)).toBeGreaterThan(HOST_MCP_LIMIT_TOKENS);
    expect(resultBudget(big)).toMatchObject({ tokens: OVER_LIMIT_BUDGET_TOKENS, overHostLimit: true });
    expect(resultBudget(big, { hostLimitTokens: 10_000_000, budgetTokens: 900 })).toMatchObject({
      tokens: 900,
      overHostLimit: false,
    });
  });

  it("shrinks a text result over the host's limit to no more than the host's stub, its original byte-exact", async () => {
    const h = harness({ keep: true, retrieve: true });
    const log = pgLog(3000);
    const { result } = await call(h, { content: [{ type: "text", text: log }] });
    const { text, handle } = standIn(result, OVER_LIMIT_BUDGET_TOKENS);
    // Every distinct error still shows, verbatim.
    expect(text).toContain('unique constraint "orders_pkey');
    expect(await retrieve(h, handle)).toBe(log);
  }, 120_000);

  it("keeps a result under the limit within the default budget, its original byte-exact", async () => {
    const h = harness({ keep: true, retrieve: true });
    const log = pgLog(400);
    const tokens = countTokens(log);
    expect(tokens).toBeGreaterThan(DEFAULT_BUDGET_TOKENS * 2);
    expect(tokens).toBeLessThan(HOST_MCP_LIMIT_TOKENS);
    const { result } = await call(h, { content: [{ type: "text", text: log }] });
    const { handle } = standIn(result, DEFAULT_BUDGET_TOKENS);
    expect(await retrieve(h, handle)).toBe(log);
  }, 120_000);

  it("replaces structured content over the limit with one stand-in within the stub's cost", async () => {
    const h = harness({ keep: true, retrieve: true });
    const log = pgLog(3000);
    const { result } = await call(h, {
      structuredContent: { content: log },
      content: [{ type: "text", text: log }],
    });
    expect(result.structuredContent).toBeUndefined();
    const { handle } = standIn(result, OVER_LIMIT_BUDGET_TOKENS);
    expect(await retrieve(h, handle)).toBe(log);
  }, 120_000);

  it("takes text blocks that are over the limit only together as one text, within the stub's cost", async () => {
    const h = harness({ keep: true, retrieve: true });
    const parts = [pgLog(400), pgLog(401)];
    for (const p of parts) expect(countTokens(p)).toBeLessThan(HOST_MCP_LIMIT_TOKENS);
    const { result } = await call(h, { content: parts.map((text) => ({ type: "text", text })) });
    const { handle } = standIn(result, OVER_LIMIT_BUDGET_TOKENS);
    expect(await retrieve(h, handle)).toBe(parts.join("\n"));
  }, 120_000);

  it("passes results under the floor byte for byte", async () => {
    const h = harness({ keep: true, retrieve: true });
    const answer = { content: [{ type: "text", text: pgLog(5) }], structuredContent: { n: 5 } };
    const { raw } = await call(h, answer);
    expect(JSON.parse(raw)).toEqual({ jsonrpc: "2.0", id: nextId - 1, result: answer });
    expect(raw).toBe(JSON.stringify({ jsonrpc: "2.0", id: nextId - 1, result: answer }));
  });
});
