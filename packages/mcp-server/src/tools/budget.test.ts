import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { realStores } from "../testing.test-helpers.js";

function listTokens(families: Array<"compress" | "edit">): { tokens: number; names: string[] } {
  const { tools } = realStores(families);
  const registry = new ToolRegistry({ tools, logger: silentLogger, maxResultBytes: 1 << 24 });
  const result = { tools: registry.listTools() };
  return { tokens: countTokens(JSON.stringify(result)), names: registry.names };
}

describe("tools/list prefix budget (o200k tokens)", () => {
  it("keeps the compression family at or under 700 tokens", () => {
    const { tokens, names } = listTokens(["compress"]);
    expect(names).toEqual([
      "caveman_compress",
      "caveman_retrieve",
      "caveman_stats",
      "caveman_toon_encode",
      "caveman_toon_decode",
    ]);
    console.log(`tools/list compress family: ${tokens} tokens`);
    expect(tokens).toBeLessThanOrEqual(700);
  });

  // 1,728 is what the twelve tools cost before be-batch and range_hash were added: adding them
  // must not make every agent call pay more.
  it("keeps all thirteen tools at or under 1728 tokens", () => {
    const { tokens, names } = listTokens(["compress", "edit"]);
    expect(names).toHaveLength(13);
    console.log(`tools/list all tools: ${tokens} tokens`);
    expect(tokens).toBeLessThanOrEqual(1728);
  });
});
