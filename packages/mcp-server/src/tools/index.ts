// The thirteen tools, by family (`retrieve` is `caveman_retrieve` alone). Contract: `createCavemanTools` returns only the tools of the
// requested families whose dependencies were given — a family is never half-registered and no
// tool is ever a stub.
import type { AnyCcrStore } from "@caveman/ccr-store";
import type { ChipStore } from "@caveman/chip-store";
import type { Editor } from "@caveman/edit-ops";
import type { Kept } from "@caveman/keep";
import type { ToolFamily, ToolSpec } from "../registry.js";
import type { Session } from "../session.js";
import { type Engine, inlineEngine } from "../work/engine.js";
import { batchTool } from "./batch.js";
import { compressTool, type StoreInfo, statsTool } from "./compression.js";
import { editTools } from "./edit.js";
import { insertChipTool } from "./insertChip.js";
import { type Retrieved, retrieveTool } from "./retrieve.js";
import { toonDecodeTool, toonEncodeTool } from "./toon.js";

export interface CavemanToolsOptions {
  families: readonly ToolFamily[];
  session: Session;
  /** Needed by the compression family. */
  ccr?: AnyCcrStore;
  store?: StoreInfo;
  /** Where the compression family runs the engine (default: inline, no deadline; the server passes an EnginePool). */
  engine?: Engine;
  /** Tokens per page of a full retrieve (default: the engine's DEFAULT_PAGE_TOKENS). */
  retrievePageTokens?: number;
  /** Needed by the edit family. */
  editor?: Editor;
  chips?: ChipStore;
  /** Told of each retrieve's size (the app's savings journal nets retrieves out). */
  onRetrieved?: (r: Retrieved) => void;
  /** Told of each stand-in caveman_compress returns (the savings journal). */
  onKept?: (kept: Kept) => void;
}

export function createCavemanTools(options: CavemanToolsOptions): ToolSpec[] {
  const tools: ToolSpec[] = [];
  const compressing = options.families.includes("compress");
  if (compressing || options.families.includes("retrieve")) {
    if (!options.ccr) throw new TypeError("the compress and retrieve families need `ccr`");
    const deps = {
      ccr: options.ccr,
      session: options.session,
      store: options.store ?? { backend: "memory" as const },
      engine: options.engine ?? inlineEngine(),
      ...(options.retrievePageTokens ? { pageTokens: options.retrievePageTokens } : {}),
      ...(options.onRetrieved ? { onRetrieved: options.onRetrieved } : {}),
      ...(options.onKept ? { onKept: options.onKept } : {}),
    };
    // The retrieve family is a subset of the compress family, so naming both registers each tool once.
    if (compressing)
      tools.push(
        compressTool(deps),
        retrieveTool(deps),
        statsTool(deps),
        toonEncodeTool(deps.engine),
        toonDecodeTool(deps.engine),
      );
    else tools.push(retrieveTool(deps));
  }
  if (options.families.includes("edit")) {
    if (!options.editor || !options.chips) throw new TypeError("the edit family needs `editor` and `chips`");
    const deps = { editor: options.editor, chips: options.chips };
    tools.push(...editTools(deps), batchTool(deps), insertChipTool(deps));
  }
  return tools;
}

export type { Retrieved, StoreInfo };
