// Test helpers: real stores in a fresh temp directory (removed after the test), the way the
// binary builds them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openMemoryStore } from "@caveman/ccr-store";
import { openChipStore } from "@caveman/chip-store";
import { createEditor } from "@caveman/edit-ops";
import { tempDir } from "@caveman/test-kit";
import { silentLogger } from "./logger.js";
import { type ToolFamily, ToolRegistry } from "./registry.js";
import { Session } from "./session.js";
import { createCavemanTools } from "./tools/index.js";

export function realStores(families: ToolFamily[] = ["compress", "edit"]) {
  const base = tempDir("caveman-mcp-test-");
  const root = join(base, "root");
  mkdirSync(root);
  const ccr = openMemoryStore();
  const chips = openChipStore({ dir: join(base, "chips") });
  const editor = createEditor({ roots: [root], journalDir: join(base, "journal") });
  const session = new Session();
  const tools = createCavemanTools({ families, session, ccr, chips, editor, store: { backend: "memory" } });
  return { base, root, ccr, chips, editor, session, tools };
}

/** The edit family on real stores, with `f.txt` holding `content`, and a call that returns the text. */
export function editHarness(content: string) {
  const s = realStores(["edit"]);
  const reg = new ToolRegistry({ tools: s.tools, logger: silentLogger, maxResultBytes: 1 << 24 });
  const file = join(s.root, "f.txt");
  writeFileSync(file, content);
  const signal = new AbortController().signal;
  const call = async (name: string, args: unknown) => {
    const r = await reg.callTool(name, args, { signal });
    const first = r.content[0];
    return { r, text: first && first.type === "text" ? first.text : "" };
  };
  return { ...s, reg, file, call };
}
