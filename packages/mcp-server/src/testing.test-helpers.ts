// Test helpers: real stores in a fresh temp directory, the way the binary builds them.
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemoryStore } from "@caveman/ccr-store";
import { openChipStore } from "@caveman/chip-store";
import { createEditor } from "@caveman/edit-ops";
import type { ToolFamily } from "./registry.js";
import { Session } from "./session.js";
import { createCavemanTools } from "./tools/index.js";

export function realStores(families: ToolFamily[] = ["compress", "edit"]) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "caveman-mcp-test-")));
  const root = join(base, "root");
  mkdirSync(root);
  const ccr = openMemoryStore();
  const chips = openChipStore({ dir: join(base, "chips") });
  const editor = createEditor({ roots: [root], journalDir: join(base, "journal") });
  const session = new Session();
  const tools = createCavemanTools({ families, session, ccr, chips, editor, store: { backend: "memory" } });
  return { base, root, ccr, chips, editor, session, tools };
}
