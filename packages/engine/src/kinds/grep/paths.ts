// Path lists (`find`, `grep -l`, `git ls-files`, and `grep -c`'s `path:count`): paths group by
// top directory, depth and extension (`src/ depth 3 .ts`); each group shows its first paths and any path
// whose name (digits masked) is unique in the whole list, the rest fold into a marker naming the
// group and how many paths it held. (Unique in its group kept every file of trees repeated under
// several top directories: pkg0/py/cart1.py, pkg1/py/cart1.py, ...) Query matches are kept. Every
// shown line is a line of the input.

import { droppedCount, REGION_GAP, renderKept } from "../../lines.js";
import { plural } from "../../markers.js";
import { queryTerms } from "../../shared/query.js";
import { pathOf } from "../../structure.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";

/** Paths shown per group before the rest fold. */
const FIRST_PER_GROUP = 3;

function groupOf(path: string): string {
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  const name = parts[parts.length - 1] ?? "";
  const dot = name.lastIndexOf(".");
  return `${parts.length > 1 ? parts[0] : ""}/ depth ${parts.length}${dot > 0 ? ` .${name.slice(dot + 1)}` : ""}`;
}

function nameOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return path.slice(slash + 1).replace(/\d+/g, "#");
}

/** Compresses a list of paths, or says why it cannot. */
export function compressPaths(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length);
  const group: string[] = new Array(lines.length).fill("");
  const names = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const path = pathOf(lines[i]!);
    if (path === undefined) continue;
    group[i] = groupOf(path);
    const key = nameOf(path);
    names.set(key, (names.get(key) ?? 0) + 1);
  }
  const shown = new Map<string, number>();
  const terms = queryTerms(ctx.query);
  for (let i = 0; i < lines.length; i++) {
    const g = group[i]!;
    if (g === "") {
      keep[i] = 1;
      continue;
    }
    const seen = shown.get(g) ?? 0;
    shown.set(g, seen + 1);
    const path = pathOf(lines[i]!)!;
    const lower = lines[i]!.toLowerCase();
    if (
      seen < FIRST_PER_GROUP ||
      names.get(nameOf(path)) === 1 ||
      (terms.length > 0 && terms.every((t) => lower.includes(t)))
    )
      keep[i] = 1;
  }
  if (droppedCount(keep, lines.length) === 0) return "document";
  const facts = (from: number, to: number): string[] => {
    const counts = new Map<string, number>();
    for (let i = from; i <= to; i++) if (!keep[i]) counts.set(group[i]!, (counts.get(group[i]!) ?? 0) + 1);
    // "under G xN": a single group covering the whole run then drops its count (renderKept).
    const parts = [...counts].map(([g, n]) => `under ${g} x${n}`);
    // Two groups named at most: the kept paths around the marker show the others' directories.
    return [
      parts.length > 2
        ? `${parts.slice(0, 2).join(", ")}, ${plural(parts.length - 2, "more group")}`
        : parts.join(", "),
    ];
  };
  return {
    output: renderKept(lines, keep, {
      unit: "path",
      facts,
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
