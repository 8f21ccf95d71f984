// Rendering of edit results, and keeping removed text as chips. Contract: text removed or
// overwritten by a written edit is saved as a content chip with its origin before the result is
// rendered, and every chip id appears in the result as `chip://<id>`; a chip that cannot be saved
// is reported as a warning, never silently lost. Edit tools are text tools (no output schema):
// one summary line (path, lines added/removed, total lines, hash, written or not), the chip ids,
// the warnings, then the unified diff — everything in the text every client reads.
import type { ChipStore } from "@caveman/chip-store";
import type { EditResult } from "@caveman/edit-ops";
import type { TextOutcome } from "../contract.js";

export function keepRemoved(
  chips: ChipStore,
  tool: string,
  result: EditResult,
): { ids: string[]; warnings: string[] } {
  const ids: string[] = [];
  const warnings: string[] = [];
  if (!result.written) return { ids, warnings };
  for (const removed of result.removed) {
    if (removed.text.length === 0) continue;
    try {
      const saved = chips.saveContent({ tool, content: removed.text, origin: removed.origin });
      if (saved.chip) ids.push(saved.chip.id);
      warnings.push(...saved.warnings);
    } catch (err) {
      warnings.push(
        `removed text could not be kept as a chip: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return { ids, warnings };
}

export function renderEdit(
  result: EditResult,
  chipIds: string[],
  extraWarnings: string[],
  lead?: string,
): TextOutcome {
  const warnings = [...result.warnings, ...extraWarnings];
  const state = result.preview ? "preview, nothing written" : result.written ? "written" : "unchanged";
  const lines: string[] = [];
  if (lead) lines.push(lead);
  lines.push(
    `${result.op} ${result.path}: +${result.lines_added} -${result.lines_removed}, ${result.total_lines} lines, hash ${result.hash ?? "none"} (${state})`,
  );
  if (chipIds.length > 0)
    lines.push(`removed text kept as ${chipIds.map((id) => `chip://${id}`).join(", ")}`);
  for (const w of warnings) lines.push(`warning: ${w}`);
  if (result.diff) lines.push(result.diff);
  return { text: lines.join("\n") };
}
