// The be-* file tools over @caveman/edit-ops. Contract: each tool registers the argument schema
// edit-ops owns for its operation (one validation layer: the registry parses with it, and the
// editor's parse of the same schema cannot disagree); every path is confined to the roots by the
// editor; write, replace and delete keep what they removed as content chips. All are text tools:
// be-read's header line and numbered lines, or `renderEdit`'s summary and diff.
import type { ChipStore } from "@caveman/chip-store";
import {
  deleteArgs,
  type Editor,
  insertArgs,
  readArgs,
  replaceArgs,
  undoArgs,
  writeArgs,
} from "@caveman/edit-ops";
import { defineTool, type ToolSpec } from "../registry.js";
import { keepRemoved, renderEdit } from "./editResult.js";

export interface EditDeps {
  editor: Editor;
  chips: ChipStore;
}

const MUTATES = { readOnlyHint: false, destructiveHint: true, idempotentHint: false };

export function editTools(deps: EditDeps): ToolSpec[] {
  const { editor, chips } = deps;
  const kept = async (tool: string, run: Promise<Awaited<ReturnType<Editor["write"]>>>) => {
    const result = await run;
    const { ids, warnings } = keepRemoved(chips, tool, result);
    return renderEdit(result, ids, warnings);
  };
  return [
    defineTool({
      name: "be-read",
      family: "edit",
      description: "Read numbered lines (path, path:10, path:5-15, or target) with total lines and hashes.",
      input: readArgs,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      run: async (args) => {
        const r = await editor.read(args);
        const head = `${r.path} lines ${r.start_line}-${r.end_line} of ${r.total_lines}, hash ${r.hash}, range ${r.range_hash}`;
        const tail =
          r.truncated && r.next ? `\n[capped: next range ${r.next.start_line}-${r.next.end_line}]` : "";
        return { text: `${head}\n${r.numbered}${tail}` };
      },
    }),
    defineTool({
      name: "be-write",
      family: "edit",
      description: "Create or overwrite a file; old text kept as a chip.",
      input: writeArgs,
      annotations: MUTATES,
      run: (args) => kept("be-write", editor.write(args)),
    }),
    defineTool({
      name: "be-insert",
      family: "edit",
      description: "Insert content after line N (0 = top).",
      input: insertArgs,
      annotations: { ...MUTATES, destructiveHint: false },
      run: (args) => kept("be-insert", editor.insert(args)),
    }),
    defineTool({
      name: "be-replace",
      family: "edit",
      description: "Replace a line range, or exact `old` text matching once; old text kept as a chip.",
      input: replaceArgs,
      annotations: MUTATES,
      run: (args) => kept("be-replace", editor.replace(args)),
    }),
    defineTool({
      name: "be-delete",
      family: "edit",
      description: "Delete a line range; deleted text kept as a chip.",
      input: deleteArgs,
      annotations: MUTATES,
      run: (args) => kept("be-delete", editor.delete(args)),
    }),
    defineTool({
      name: "be-undo",
      family: "edit",
      description: "Undo a file's last edit if the file is unchanged since.",
      input: undoArgs,
      annotations: MUTATES,
      run: (args) => kept("be-undo", editor.undo(args)),
    }),
  ];
}
