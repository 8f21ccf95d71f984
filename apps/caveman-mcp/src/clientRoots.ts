// Edit roots offered by the MCP client. Contract: used only when the user named no root (no
// --root, no CAVEMAN_ROOTS) — an explicit root always wins; only `file://` URIs naming existing
// directories count, the rest are reported and skipped; when none is usable the roots in force
// stay. The edit tools keep one `Editor` object whose target is swapped, so a call sees either
// the old roots or the new ones, never a mix.
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createEditor, type Editor } from "@caveman/edit-ops";
import type { ClientRoot, Logger } from "@caveman/mcp-server";

/** Existing directories named by the client's `file://` roots; what was skipped, and why. */
export function usableRoots(roots: readonly ClientRoot[]): { dirs: string[]; skipped: string[] } {
  const dirs: string[] = [];
  const skipped: string[] = [];
  for (const root of roots) {
    let path: string;
    try {
      path = fileURLToPath(root.uri);
    } catch {
      skipped.push(`${root.uri} (not a file:// URI)`);
      continue;
    }
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) skipped.push(`${path} (not an existing directory)`);
    else if (!dirs.includes(path)) dirs.push(path);
  }
  return { dirs, skipped };
}

export interface SwitchableEditor {
  /** The editor the tools hold; every property read goes to the editor currently in force. */
  editor: Editor;
  /** Start using `roots` (with the same undo journal). */
  switchTo(roots: string[]): void;
}

export function switchableEditor(initial: Editor, journalDir: string): SwitchableEditor {
  let current = initial;
  const editor = new Proxy(initial, {
    get(_target, key) {
      const value: unknown = Reflect.get(current, key);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
  return {
    editor,
    switchTo(roots) {
      current = createEditor({ roots, journalDir });
    },
  };
}

/** The `onClientRoots` handler for the server: apply the client's roots, log what happened. */
export function applyClientRoots(target: SwitchableEditor, logger: Logger): (roots: ClientRoot[]) => void {
  return (roots) => {
    const { dirs, skipped } = usableRoots(roots);
    if (skipped.length > 0) logger.warn(`client roots skipped: ${skipped.join("; ")}`);
    if (dirs.length === 0) {
      logger.warn("the client offered no usable root; the edit roots stay as they were");
      return;
    }
    try {
      target.switchTo(dirs);
    } catch (err) {
      logger.warn(`client roots not used (${err instanceof Error ? err.message : String(err)})`);
      return;
    }
    logger.info(`edit roots from the client: ${dirs.join(", ")}`);
  };
}
