import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSqliteStore } from "@caveman/ccr-store/sqlite";
import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { Session } from "../session.js";
import { realStores } from "../testing.test-helpers.js";
import { createCavemanTools } from "./index.js";

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

describe("retrieve of a damaged record", () => {
  it("answers cave_store_corrupt and never the bytes, because the store checks every get against the hash", async () => {
    const path = join(realStores(["retrieve"]).base, "ccr.db");
    const original = `${"the one original that a disk fault will damage ".repeat(20)}\n`;
    const writer = openSqliteStore({ path });
    const { handle } = writer.put(original);
    writer.close(); // checkpoints the WAL, so the bytes sit in the main file
    // Flip one byte of the stored original on disk, as a failing disk would.
    const file = readFileSync(path);
    const at = file.indexOf(Buffer.from("will damage"));
    expect(at).toBeGreaterThan(0);
    file[at] = "W".charCodeAt(0);
    writeFileSync(path, file);

    const ccr = openSqliteStore({ path });
    const tools = createCavemanTools({
      families: ["retrieve"],
      session: new Session(),
      ccr,
      store: { backend: "sqlite", path },
    });
    const registry = new ToolRegistry({ tools, logger: silentLogger, maxResultBytes: 1 << 24 });
    const result = await registry.callTool(
      "caveman_retrieve",
      { recovery_handle: handle },
      { signal: new AbortController().signal },
    );
    ccr.close();
    expect(result.isError).toBe(true);
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    expect(text).toMatch(/^cave_store_corrupt: the record for ccr_[0-9a-f]{32} .* does not match its hash/);
    expect(text).not.toContain("damage");
  });
});
