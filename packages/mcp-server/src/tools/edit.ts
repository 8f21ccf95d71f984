// The be-* file tools over @caveman/edit-ops. Contract: arguments are validated strictly here and
// handed to the editor unchanged (it re-checks them against the file); every path is confined to
// the roots by the editor; write, replace and delete keep what they removed as content chips.
// All are text tools: be-read's header line and numbered lines, or `renderEdit`'s summary and diff.
import type { ChipStore } from "@caveman/chip-store";
import type { Editor, ReadInput } from "@caveman/edit-ops";
import { z } from "zod";
import { defineTool, type ToolSpec } from "../registry.js";
import { keepRemoved, renderEdit } from "./editResult.js";

export interface EditDeps {
  editor: Editor;
  chips: ChipStore;
}

const line = z.number().int();
const guard = {
  preview: z.boolean().optional(),
  expected_hash: z.string().max(64).optional(),
};
/** Line edits may pin the lines they touch: be-read's range_hash of exactly those lines. */
export const anchored = {
  ...guard,
  range_hash: z.string().max(64).optional().describe("be-read range hash of exactly the lines edited"),
};
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
      input: z.strictObject({
        path: z.string(),
        start_line: line.optional(),
        end_line: line.optional(),
        target: z
          .strictObject({
            kind: z.enum(["function", "tag", "marker"]),
            name: z.string().optional(),
            line: line.optional(),
            text: z.string().optional(),
          })
          .optional()
          .describe("function/tag by name or line; marker by text"),
        context: line.optional().describe("extra lines around target"),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
      run: async (args) => {
        // The flat target schema is cheaper on the wire than a union; the editor checks the combination.
        const r = await editor.read(args as ReadInput);
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
      input: z.strictObject({
        path: z.string(),
        content: z.string(),
        create_dirs: z.boolean().optional(),
        ...guard,
      }),
      annotations: MUTATES,
      run: (args) => kept("be-write", editor.write(args)),
    }),
    defineTool({
      name: "be-insert",
      family: "edit",
      description: "Insert content after line N (0 = top).",
      input: z.strictObject({
        path: z.string(),
        after_line: line.optional(),
        content: z.string(),
        ...anchored,
      }),
      annotations: { ...MUTATES, destructiveHint: false },
      run: (args) => kept("be-insert", editor.insert(args)),
    }),
    defineTool({
      name: "be-replace",
      family: "edit",
      description: "Replace a line range, or exact `old` text matching once; old text kept as a chip.",
      input: z.strictObject({
        path: z.string(),
        start_line: line.optional(),
        end_line: line.optional(),
        old: z.string().optional(),
        content: z.string().optional(),
        ...anchored,
      }),
      annotations: MUTATES,
      run: (args) => kept("be-replace", editor.replace(args)),
    }),
    defineTool({
      name: "be-delete",
      family: "edit",
      description: "Delete a line range; deleted text kept as a chip.",
      input: z.strictObject({
        path: z.string(),
        start_line: line.optional(),
        end_line: line.optional(),
        all: z.boolean().optional().describe("whole file"),
        old: z.string().optional().describe("text the range must hold"),
        ...anchored,
      }),
      annotations: MUTATES,
      run: (args) => kept("be-delete", editor.delete(args)),
    }),
    defineTool({
      name: "be-undo",
      family: "edit",
      description: "Undo a file's last edit if the file is unchanged since.",
      input: z.strictObject({ path: z.string(), ...guard }),
      annotations: MUTATES,
      run: (args) => kept("be-undo", editor.undo(args)),
    }),
  ];
}
