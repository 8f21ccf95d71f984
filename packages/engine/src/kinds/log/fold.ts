// The log compressor. Keeps the first lines and the last one, the first occurrence of each line
// template (so every folded line has a verbatim instance on show), the first line of every
// error and warning template with its continuation (stack traces whole), and lines that match
// the query; every other line repeats a kept template and is folded into a marker stating, per
// level as written in the lines and per template, how many lines it replaced. Error and warning
// groups are always named in a marker, never lumped into "others". No time spans: stamps come in
// too many styles to compute a span that is certainly right, and the kept lines around a marker
// carry their own.

import { droppedCount, REGION_GAP, renderKept } from "../../lines.js";
import { queryTerms } from "../../shared/query.js";
import { isContinuation, severity } from "../../shared/severity.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { tick } from "../../work.js";
import { levelOf, templateOf } from "./template.js";

const HEAD = 3;
const TAIL = 1;
/** Rare templates sharing a shape (first plain word, word count) fold when the shape repeats this often. */
const SHAPE_MIN = 8;

const PLAIN_WORD = /^[A-Za-z][a-z-]*$/;

/** First plain word and the word count of a template: "status|5". */
function shapeOf(template: string): string {
  let words = 0;
  let lead = "";
  let leadWords = 0;
  for (const w of template.split(" ")) {
    if (w === "") continue;
    words++;
    if (leadWords < 1 && PLAIN_WORD.test(w)) {
      lead += leadWords === 0 ? w : ` ${w}`;
      leadWords++;
    }
  }
  return `${lead}|${words}`;
}

/**
 * The key each line folds under: its template when the template repeats SHAPE_MIN times;
 * otherwise its shape (e.g. "Setting up <pkg> ..." lines) when that does.
 */
function foldKeys(lines: readonly string[]): {
  key: Int32Array;
  tid: Int32Array;
  shaped: Uint8Array;
  keys: number;
} {
  const n = lines.length;
  tick(n);
  // Templates become small integer ids once, so the per-line work below is array indexing.
  const ids = new Map<string, number>();
  const templates: string[] = new Array(n);
  const tid = new Int32Array(n);
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = templateOf(lines[i]!);
    templates[i] = t;
    let id = ids.get(t);
    if (id === undefined) {
      id = counts.length;
      ids.set(t, id);
      counts.push(0);
    }
    counts[id]!++;
    tid[i] = id;
  }
  const shapeIds = new Map<string, number>();
  const sid = new Int32Array(n).fill(-1);
  const shapeCounts: number[] = [];
  // A shape depends on the template only: computed once per template.
  const shapeOfTemplate = new Int32Array(counts.length).fill(-1);
  for (let i = 0; i < n; i++) {
    const t = tid[i]!;
    if (counts[t]! >= SHAPE_MIN) continue;
    let id = shapeOfTemplate[t]!;
    if (id < 0) {
      const shape = shapeOf(templates[i]!);
      id = shapeIds.get(shape) ?? -1;
      if (id < 0) {
        id = shapeCounts.length;
        shapeIds.set(shape, id);
        shapeCounts.push(0);
      }
      shapeOfTemplate[t] = id;
    }
    shapeCounts[id]!++;
    sid[i] = id;
  }
  const key = new Int32Array(n);
  const shaped = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const s = sid[i]!;
    if (s >= 0 && shapeCounts[s]! >= SHAPE_MIN) {
      key[i] = counts.length + s;
      shaped[i] = 1;
    } else key[i] = tid[i]!;
  }
  return { key, tid, shaped, keys: counts.length + shapeCounts.length };
}

/** Keep flags for log lines, and for each line the kept line whose template it repeats. */
export function planLog(
  lines: readonly string[],
  ctx: KindContext,
): { keep: Uint8Array; rep: Int32Array; sev: Uint8Array } {
  const n = lines.length;
  const keep = new Uint8Array(n);
  // Severity of each line, read once here and reused by the marker facts.
  const sevOf = new Uint8Array(n);
  // rep[i] = index of the kept line whose template line i repeats; -2 - index when only its shape does
  const rep = new Int32Array(n).fill(-1);
  const terms = queryTerms(ctx.query);
  const { key, tid, shaped, keys } = foldKeys(lines);
  const first = new Int32Array(keys).fill(-1);
  // Error and warning lines are judged by their own template, never by a shared shape: each
  // distinct error or warning template keeps its first line verbatim.
  const firstSevere = new Int32Array(keys).fill(-1);
  // The tail is counted from the last line with text: a final newline leaves an empty last line.
  let end = n;
  while (end > 0 && lines[end - 1]!.trim() === "") end--;
  let inTrace = false;
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    if (i < HEAD || i >= end - TAIL) keep[i] = 1;
    if (inTrace && isContinuation(line)) {
      keep[i] = 1;
      continue;
    }
    inTrace = false;
    const sev = severity(line);
    sevOf[i] = sev;
    const k = sev > 0 ? tid[i]! : key[i]!;
    const firstAt = first[k]!;
    if (firstAt < 0) {
      first[k] = i;
      keep[i] = 1;
    } else if (sev > 0 && firstSevere[k]! >= 0) {
      // A severe line names the first severe line of its template: a 503 access-log line shares
      // its template with 200 lines, and "like line 1" (a 200) would hide that it is a 5xx.
      rep[i] = firstSevere[k]!;
    } else rep[i] = shaped[i] && sev === 0 ? -2 - firstAt : firstAt;
    if (sev > 0 && firstSevere[k]! < 0) {
      firstSevere[k] = i;
      keep[i] = 1;
      if (sev === 2) inTrace = true;
    }
    if (terms.length > 0) {
      const lower = line.toLowerCase();
      if (terms.every((t) => lower.includes(t))) keep[i] = 1;
    }
  }
  return { keep, rep, sev: sevOf };
}

/**
 * Marker facts for the folded lines in [from, to] (kept lines skipped): warning and error lines
 * per level as the lines write it and per kept line they repeat (`WARN like line 40 x12`), every
 * such group named; other lines as a count per level (`INFO x300, DEBUG x80`). The kept lines
 * they repeat are on show around the marker, so naming them for every quiet group cost more
 * tokens than it told.
 */
export function foldFacts(
  lines: readonly string[],
  rep: Int32Array,
  sev: Uint8Array,
  keep: ArrayLike<number>,
) {
  return (from: number, to: number): string[] => {
    // severe: level -> (reference -> count); quiet: level -> count.
    const severe = new Map<string, Map<number, number>>();
    const quiet = new Map<string, number>();
    for (let i = from; i <= to; i++) {
      if (keep[i]) continue;
      const level = levelOf(lines[i]!);
      if (sev[i]! > 0 && rep[i]! >= 0) {
        let refs = severe.get(level);
        if (!refs) {
          refs = new Map();
          severe.set(level, refs);
        }
        refs.set(rep[i]!, (refs.get(rep[i]!) ?? 0) + 1);
      } else if (level) quiet.set(level, (quiet.get(level) ?? 0) + 1);
    }
    const parts: string[] = [];
    for (const [level, refs] of [...severe].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      const list = [...refs]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([r, c]) => `${r + 1} x${c}`)
        .join(", ");
      parts.push(`${level ? `${level} ` : ""}like line ${list}`);
    }
    const counts = [...quiet]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([l, c]) => `${l} x${c}`);
    if (counts.length > 0) parts.push(counts.join(", "));
    return parts.length > 0 ? [parts.join("; ")] : [];
  };
}

/** Compresses log text, or says why it cannot. */
export function compressLog(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const { keep, rep, sev } = planLog(lines, ctx);
  if (droppedCount(keep, lines.length) === 0) return "document";
  // The kept lines `like line N` names stay out of region markers, where the model can place them.
  const anchors = new Set<number>();
  for (let i = 0; i < lines.length; i++) if (!keep[i] && sev[i]! > 0 && rep[i]! >= 0) anchors.add(rep[i]!);
  const output = renderKept(lines, keep, {
    facts: foldFacts(lines, rep, sev, keep),
    regionGap: REGION_GAP,
    anchors,
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output, lossless: false };
}
