import { openMemoryStore } from "@caveman/ccr-store";
import { parseKeptHeader } from "@caveman/keep";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { Session } from "../session.js";
import { createCavemanTools } from "./index.js";

const signal = new AbortController().signal;
const logs = Array.from(
  { length: 400 },
  (_, i) => `2024-05-01T10:00:${String(i % 60).padStart(2, "0")}Z INFO worker-${i % 4} job ${i} ok`,
).join("\n");

function registry(budgetBytes?: number, maxResultBytes = 1 << 24) {
  const ccr = openMemoryStore(budgetBytes ? { budgetBytes } : {});
  const tools = createCavemanTools({
    families: ["compress"],
    session: new Session(),
    ccr,
    store: { backend: "memory" },
  });
  return { ccr, reg: new ToolRegistry({ tools, logger: silentLogger, maxResultBytes }) };
}

describe("compression tools in process", () => {
  it("stores the original before returning lossy output, under the handle it reports", async () => {
    const { ccr, reg } = registry();
    const r = await reg.callTool("caveman_compress", { input: logs }, { signal });
    expect(r.structuredContent).toBeUndefined();
    expect(r.content).toHaveLength(1);
    const text = r.content[0]?.type === "text" ? r.content[0].text : "";
    const header = parseKeptHeader(text.split("\n")[0]!);
    expect(header).toMatchObject({ kind: "log" });
    expect(header!.tokensOut).toBeLessThan(header!.tokensIn);
    expect(Buffer.from(ccr.get(header!.handle)!.original).toString("utf8")).toBe(logs);
  });

  it("passes the input through unchanged when the store refuses it", async () => {
    const { reg } = registry(1024);
    const r = await reg.callTool("caveman_compress", { input: logs }, { signal });
    expect(r.isError).toBeFalsy();
    expect(r.content[0]).toEqual({ type: "text", text: logs });
    expect(r.content[1]).toEqual({
      type: "text",
      text: expect.stringMatching(
        /^\[caveman: not compressed \(store_refused:cave_\w+\); log; \d+ tokens; no recovery_handle\]$/,
      ),
    });
  });

  it("exempts retrieve from the result cap but caps other tools", async () => {
    const { reg } = registry(undefined, 64);
    const r = await reg.callTool("caveman_compress", { input: logs }, { signal });
    expect(r.content[0]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^cave_result_too_large: /),
    });
    const { ccr, reg: reg2 } = registry(undefined, 64);
    const { handle } = ccr.put(logs);
    const back = await reg2.callTool("caveman_retrieve", { recovery_handle: handle }, { signal });
    // The original goes over the wire once: one text block, no structured copy.
    expect(back).toEqual({ content: [{ type: "text", text: logs }] });
  });
});
