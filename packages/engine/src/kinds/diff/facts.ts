// The marker facts of a compressed diff: for a span of dropped lines, what was hidden, from the
// reason compressDiff recorded for each line. Promises: repeated changes are listed per line they
// repeat (exact repeats, repeats that differ only in digits, and the same edit on other text,
// each apart), the most repeated first; elisions any diff makes (context, file headers, hunk
// headers, `---`) are left to the span; other reasons are named with their count, generated
// files by their `+added -removed` note, at most four kinds and then how many more.
import { plural } from "../../markers.js";

/** Reasons a diff line is dropped that markers do not name. */
const PLAIN_ELISIONS = new Set(["context", "index/---/+++", "hunk header", "---"]);
/**
 * The reasons compressDiff gives a repeated change: `same change as line N` (the same text),
 * `same change as line N but for numbers` (the same text once digits are masked), `change like
 * line N` (the same edit, digits masked, on lines whose unchanged text differs).
 */
const SAME_CHANGE = /^(?:same change as line (\d+)( but for numbers)?|change like line (\d+))$/;

/**
 * The facts builder renderKept calls per dropped span. `keep[i]` is 0 for a dropped line and
 * `why[i]` says what that line was.
 */
export function diffFacts(keep: Uint8Array, why: readonly string[]): (from: number, to: number) => string[] {
  return (from, to) => {
    const counts = new Map<string, number>();
    // Repeated changes per line they repeat, one list for exact repeats, one for repeats whose
    // digits differ and one for the same edit on other text: "same change as line 9 x2, 17 x3",
    // "same change as line 9 but for numbers x4", "change like line 9 x3".
    const exact = new Map<number, number>();
    const numbers = new Map<number, number>();
    const like = new Map<number, number>();
    for (let i = from; i <= to; i++) {
      if (keep[i]) continue;
      const w = why[i]!;
      const m = SAME_CHANGE.exec(w);
      if (m) {
        const list = m[3] ? like : m[2] ? numbers : exact;
        const line = Number(m[3] ?? m[1]);
        list.set(line, (list.get(line) ?? 0) + 1);
      } else counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    // Context, file headers and hunk headers are what any diff elides: the span says enough.
    // Repeated changes, generated files and the like are named, as they tell what is hidden.
    const parts = [...counts]
      .filter(([w]) => !PLAIN_ELISIONS.has(w))
      .map(([w, c]) => (w.includes("generated") ? w : `${w} x${c}`));
    const refs = (head: string, list: Map<number, number>, but: string) =>
      `${head} ${[...list]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([l, c], k) => `${l}${k === 0 ? but : ""} x${c}`)
        .join(", ")}`;
    const same = [
      ...(exact.size > 0 ? [refs("same change as line", exact, "")] : []),
      ...(numbers.size > 0 ? [refs("same change as line", numbers, " but for numbers")] : []),
      ...(like.size > 0 ? [refs("change like line", like, "")] : []),
    ];
    if (parts.length === 0) return same;
    return [
      ...same,
      parts.length > 4
        ? `${parts.slice(0, 4).join(", ")}, ${plural(parts.length - 4, "more kind")}`
        : parts.join(", "),
    ];
  };
}
