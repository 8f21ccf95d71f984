// The line operations as plans: what insert, replace, delete and batch do to the lines of one
// snapshot, given their requests (input/requests.ts). Beside them, write.ts plans a whole-file
// write and undo.ts replays the journal instead. An operation only adds regions (and the text
// they remove) to the plan; the mutator splices, checks and writes them.

import { EditError } from "../errors.js";
import { noPosition } from "../input/fields.js";
import type { BatchRequest, DeleteRequest, InsertRequest, ReplaceRequest } from "../input/requests.js";
import type { Anchor } from "./anchor.js";
import { insertEdit, type Plan, rangeEdit, textEdit, wholeEdit } from "./plan.js";

function anchorOf(hash: string | undefined, moved: boolean | null): Anchor | undefined {
  return hash === undefined ? undefined : { hash, moved };
}

export function insertOp(plan: Plan, r: InsertRequest): void {
  const anchor = anchorOf(r.rangeHash, plan.moved);
  insertEdit(plan, { after: r.after, content: r.content, index: 0, anchor });
}

/** By `ALL`, by range, or by the exact `old` text; without any of them, `invalid_range`. */
export function replaceOp(plan: Plan, r: ReplaceRequest): void {
  const anchor = anchorOf(r.rangeHash, plan.moved);
  const { start, end } = r.position;
  const { content, old } = r;
  if (r.position.all) wholeEdit(plan, content, old, anchor);
  else if (start !== undefined && end !== undefined)
    rangeEdit(plan, { start, end, content, old, index: 0, anchor });
  else if (old !== undefined) textEdit(plan, { old, content, index: 0, anchor });
  else throw noPosition("replace");
}

export function deleteOp(plan: Plan, r: DeleteRequest): void {
  const anchor = anchorOf(r.rangeHash, plan.moved);
  const { start, end } = r.position;
  if (r.position.all) wholeEdit(plan, null, r.old, anchor);
  else if (start !== undefined && end !== undefined)
    rangeEdit(plan, { start, end, content: "", old: r.old, index: 0, anchor });
}

/** Every edit against the same snapshot; an error names its edit (`edit N: …`). */
export function batchOp(plan: Plan, r: BatchRequest): void {
  r.edits.forEach((e, index) => {
    const anchor = anchorOf(e.rangeHash, plan.moved);
    try {
      if (e.kind === "insert") insertEdit(plan, { ...e, index, anchor });
      else if (e.kind === "range") rangeEdit(plan, { ...e, index, anchor });
      else textEdit(plan, { ...e, index, anchor });
    } catch (err) {
      if (err instanceof EditError)
        throw new EditError(err.code, `edit ${index + 1}: ${err.message}`, err.details, {
          cause: err,
        });
      throw err;
    }
  });
}
