// be-batch: several edits to one file against one snapshot, all or nothing, one diff. Contract:
// each edit is a range replace (`start_line`[-`end_line`] + `content`, optional `old` check), an
// insert (`after_line` + `content`) or an exact-text replace (`old` + `content`); every position
// refers to the file as it was before the batch; the editor applies them together or refuses the
// whole batch (errors name the edit, `edit N: …`). Text the batch removed is kept as chips, one
// per edit that removed something. The schema is flat (one item shape, the editor checks the
// combination): a union would cost every agent call more tokens of tools/list. The schema is
// edit-ops' own (`batchArgs`), as for the other edit tools.
import { batchArgs } from "@caveman/edit-ops";
import { defineTool, type ToolSpec } from "../registry.js";
import type { EditDeps } from "./edit.js";
import { keepRemoved, renderEdit } from "./editResult.js";

export function batchTool(deps: EditDeps): ToolSpec {
  return defineTool({
    name: "be-batch",
    family: "edit",
    description:
      "Several edits to one file, all or nothing, one diff. Each: start_line[,end_line] or after_line or old, plus content; lines as before the batch.",
    input: batchArgs,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: async (args) => {
      const result = await deps.editor.batch(args);
      const { ids, warnings } = keepRemoved(deps.chips, "be-batch", result);
      return renderEdit(result, ids, warnings);
    },
  });
}
