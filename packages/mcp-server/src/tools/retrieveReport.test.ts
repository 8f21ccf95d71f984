import { openMemoryStore } from "@caveman/ccr-store";
import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../logger.js";
import { ToolRegistry } from "../registry.js";
import { Session } from "../session.js";
import { createCavemanTools } from "./index.js";
import type { Retrieved } from "./retrieve.js";

describe("onRetrieved", () => {
  it("tells the caller what each retrieve returned, once, and not for a repeat's pointer", async () => {
    const seen: Retrieved[] = [];
    const ccr = openMemoryStore();
    const tools = createCavemanTools({
      families: ["retrieve"],
      session: new Session(),
      ccr,
      onRetrieved: (r) => seen.push(r),
    });
    const registry = new ToolRegistry({ tools, logger: silentLogger, maxResultBytes: 1 << 24 });
    const original = "a line the model wants back\n".repeat(20);
    const { handle } = ccr.put(original, { kind: "log" });
    const call = () =>
      registry.callTool(
        "caveman_retrieve",
        { recovery_handle: handle },
        { signal: new AbortController().signal },
      );
    await call();
    await call();
    expect(seen).toEqual([{ handle, kind: "log", tokens: countTokens(original) }]);
  });
});
