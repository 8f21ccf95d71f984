// Edit roots offered by the MCP client. Contract: used only when the user named no root (no
// --root, no CAVEMAN_ROOTS) — an explicit root always wins; only absolute `file:` URIs naming
// existing directories count, the rest are reported and skipped; the file system root and the home
// directory are skipped too (the same rule as for the implicit working-directory root: a root that
// wide must be named by the user with --root); when none is usable the roots in force stay. The
// edit tools keep one `Editor` object whose target is swapped, so a call sees either the old
// roots or the new ones, never a mix.
import { realpathSync, statSync } from "node:fs";
import { parse } from "node:path";
import { fileURLToPath } from "node:url";
import { createEditor, EditError, type Editor } from "@caveman/edit-ops";
import type { ClientRoot, Logger } from "@caveman/mcp-server";

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Existing directories named by the client's `file://` roots; what was skipped, and why. */
export function usableRoots(
  roots: readonly ClientRoot[],
  home: string,
): { dirs: string[]; skipped: string[] } {
  const dirs: string[] = [];
  const skipped: string[] = [];
  const realHome = real(home);
  for (const root of roots) {
    let path: string;
    try {
      // WHATWG URL parsing reads a relative `file:dir` as `/dir`: refuse it rather than guess.
      if (!/^file:\//i.test(root.uri)) throw new Error("relative");
      path = fileURLToPath(root.uri);
    } catch {
      skipped.push(`${root.uri.slice(0, 200)} (not an absolute file:// URI)`);
      continue;
    }
    const resolved = real(path);
    if (parse(resolved).root === resolved || resolved === realHome) {
      skipped.push(
        `${path} (${resolved === realHome ? "the home directory" : "the file system root"} is too wide to be taken from the client; name it with --root if you mean it)`,
      );
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

/**
 * An editor with no usable root: every call fails with `be_outside_roots` and `why` (which names
 * --root), so the edit tools answer clearly while retrieve and compress keep serving.
 */
export function rootlessEditor(why: string): Editor {
  return new Proxy({} as Editor, {
    get() {
      return () => {
        throw new EditError("outside_roots", why);
      };
    },
  });
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
export function applyClientRoots(
  target: SwitchableEditor,
  home: string,
  logger: Logger,
): (roots: ClientRoot[]) => void {
  return (roots) => {
    const { dirs, skipped } = usableRoots(roots, home);
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
