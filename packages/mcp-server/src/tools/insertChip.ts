// be-insert-chip. Contract: with no `from` it lists chips (newest last) with their metadata; with
// `from` it inserts the raw text of a chip (a failure chip gives the field that held content, not a
// JSON dump) or of a file inside the roots, after the line named by `to`; a be-delete chip with no
// `to` goes back where it came from. Every path goes through the editor, so the roots confine the
// source file and the target alike.
import { type ChipMeta, type ChipStore, parseChipRef } from "@caveman/chip-store";
import type { Editor } from "@caveman/edit-ops";
import { z } from "zod";
import type { TextOutcome } from "../contract.js";
import { McpServerError } from "../errors.js";
import { defineTool, type ToolSpec } from "../registry.js";
import { keepRemoved, renderEdit } from "./editResult.js";

export interface InsertChipDeps {
  editor: Editor;
  chips: ChipStore;
}

function describe(m: ChipMeta): string {
  const where = m.origin ? ` from ${m.origin.path}:${m.origin.start_line}-${m.origin.end_line}` : "";
  const err = m.err_msg ? ` error: ${m.err_msg.slice(0, 120)}` : "";
  return `chip://${m.id} ${m.kind} ${m.tool} ${m.bytes}B ${m.lines}L ${m.created_at}${where}${err} | ${m.preview}`;
}

function listChips(chips: ChipStore): TextOutcome {
  const list = chips.list();
  return { text: list.length === 0 ? "no chips" : list.map(describe).join("\n") };
}

async function sourceText(
  deps: InsertChipDeps,
  from: string,
): Promise<{ text: string; origin?: ChipMeta["origin"]; tool?: string; label: string }> {
  if (/^file:/i.test(from)) {
    const r = await deps.editor.read({ path: from });
    if (r.truncated) {
      throw new McpServerError(
        "be_invalid_argument",
        `${r.path} is longer than one read (${r.total_lines} lines); give a range, e.g. ${from}:1-${r.end_line}`,
      );
    }
    return { text: r.content, label: from };
  }
  const id = parseChipRef(from);
  if (!id)
    throw new McpServerError(
      "be_invalid_argument",
      `from must be chip://<id> or file:///abs/path, got "${from.slice(0, 80)}"`,
    );
  const chip = deps.chips.get(id);
  // A failed edit's chip gives back the text it tried to write (`content`, or the `new` that
  // str_replace-style callers send), never the JSON of its whole arguments.
  const args = chip.kind === "failure" && chip.args && typeof chip.args === "object" ? chip.args : undefined;
  const field = ["content", "new"].find(
    (k) => typeof (args as Record<string, unknown> | undefined)?.[k] === "string",
  );
  const text = field ? deps.chips.replay(id, { field }) : deps.chips.replay(id);
  return { text, ...(chip.origin ? { origin: chip.origin } : {}), tool: chip.tool, label: `chip://${id}` };
}

export function insertChipTool(deps: InsertChipDeps): ToolSpec {
  return defineTool({
    name: "be-insert-chip",
    family: "edit",
    description:
      "No args: list chips. Insert from (chip://id or file:///path) after to (file:///path:line); a deleted chip without to goes back.",
    input: z.strictObject({
      from: z.string().max(4096).optional(),
      to: z.string().max(4096).optional(),
      preview: z.boolean().optional(),
      expected_hash: z.string().max(64).optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: async ({ from, to, preview, expected_hash }) => {
      if (from === undefined) {
        if (to !== undefined)
          throw new McpServerError("be_invalid_argument", "`to` needs a `from` (chip://id or file:///path)");
        return listChips(deps.chips);
      }
      const src = await sourceText(deps, from);
      let target: { path: string; after_line?: number };
      if (to !== undefined) target = { path: to };
      // Only deleted text has an empty place to go back to; text a replace or write overwrote
      // would land beside its replacement, so that needs an explicit `to` (or be-undo).
      else if (src.origin && src.tool === "be-delete")
        target = { path: src.origin.path, after_line: src.origin.start_line - 1 };
      else {
        const why = src.origin
          ? `was overwritten by ${src.tool}, so it has no empty place to go back to (be-undo reverts that edit)`
          : "has no origin to go back to";
        throw new McpServerError(
          "be_chip_not_insertable",
          `${src.label} ${why}; give to=file:///abs/path:line`,
        );
      }
      const result = await deps.editor.insert({
        ...target,
        content: src.text,
        ...(preview !== undefined ? { preview } : {}),
        ...(expected_hash !== undefined ? { expected_hash } : {}),
      });
      const { ids, warnings } = keepRemoved(deps.chips, "be-insert-chip", result);
      return renderEdit(result, ids, warnings, `inserted ${src.label}`);
    },
  });
}
