import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { realStores } from "../testing.test-helpers.js";

describe("the retrieve family", () => {
  it("registers caveman_retrieve alone, and each tool once when named with compress", () => {
    expect(realStores(["retrieve"]).tools.map((t) => t.name)).toEqual(["caveman_retrieve"]);
    const withEdit = realStores(["retrieve", "edit"]).tools.map((t) => t.name);
    expect(withEdit[0]).toBe("caveman_retrieve");
    expect(withEdit.filter((n) => n.startsWith("caveman_"))).toEqual(["caveman_retrieve"]);
    expect(withEdit.length).toBe(realStores(["edit"]).tools.length + 1);
    const both = realStores(["compress", "retrieve"]).tools.map((t) => t.name);
    expect(new Set(both).size).toBe(both.length);
    expect(both).toHaveLength(5);
  });

  it("costs a fraction of the compress family's prefix and retrieves what another tool stored", async () => {
    const { tools, ccr } = realStores(["retrieve"]);
    const registry = new ToolRegistry({ tools, logger: silentLogger, maxResultBytes: 1 << 24 });
    const tokens = countTokens(JSON.stringify({ tools: registry.listTools() }));
    console.log(`tools/list retrieve family: ${tokens} tokens`);
    expect(tokens).toBeLessThanOrEqual(200);
    const { handle } = ccr.put("stored by a hook\n");
    const result = await registry.callTool(
      "caveman_retrieve",
      { recovery_handle: handle },
      { signal: new AbortController().signal },
    );
    expect(result.content[0]).toEqual({ type: "text", text: "stored by a hook\n" });
  });
});
