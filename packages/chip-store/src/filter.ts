// Matching for ChipStore.list: pure, except that a text query may load a payload kept only on
// disk (through the caller's loader); a chip that cannot be loaded simply does not match.

import type { Chip, ChipMeta } from "./record.js";

export function textMatches(
  meta: ChipMeta,
  kept: Chip | null,
  id: string,
  q: string,
  load: (id: string) => Chip,
): boolean {
  const m = meta;
  let chip = kept;
  const hay = [m.tool, m.preview, m.err_msg ?? "", m.origin?.path ?? ""].join("\n").toLowerCase();
  if (hay.includes(q)) return true;
  if (!chip) {
    try {
      chip = load(id);
    } catch {
      return false;
    }
  }
  const body = chip.content ?? (chip.kind === "failure" ? JSON.stringify(chip.args) : "");
  return body.toLowerCase().includes(q) || (chip.err_msg ?? "").toLowerCase().includes(q);
}

export function pathMatches(actual: string | undefined, wanted: string): boolean {
  if (actual === undefined) return false;
  const a = actual.replaceAll("\\", "/");
  const w = wanted.replaceAll("\\", "/");
  return a === w || a.endsWith(w.startsWith("/") ? w : `/${w}`);
}
