// The log compressor. Keeps the first and last lines, every error and warning line with its
// continuation (stack traces whole), the first occurrence of each line template, and lines that
// match the query; every other line repeats a kept template and is folded into a marker stating
// how many lines of which template it replaced and the time span they cover.
import { queryTerms } from "../json/select.js";
import { countList, droppedCount, renderKept } from "../lines.js";
import type { Candidate, KindContext, PassReason } from "../types.js";
import { isContinuation, severity, templateOf, timestampOf } from "./template.js";

const HEAD = 3;
const TAIL = 3;
/** Repeated error lines of one template kept verbatim before the rest fold. */
const ERRORS_PER_TEMPLATE = 5;

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
function foldKeys(lines: readonly string[]): { key: Int32Array; shaped: Uint8Array; keys: number } {
  const n = lines.length;
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
  for (let i = 0; i < n; i++) {
    if (counts[tid[i]!]! >= SHAPE_MIN) continue;
    const shape = shapeOf(templates[i]!);
    let id = shapeIds.get(shape);
    if (id === undefined) {
      id = shapeCounts.length;
      shapeIds.set(shape, id);
      shapeCounts.push(0);
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
  return { key, shaped, keys: counts.length + shapeCounts.length };
}

/** Keep flags for log lines. Exported for the terminal and test compressors. */
export function planLog(lines: readonly string[], ctx: KindContext): { keep: Uint8Array; rep: Int32Array } {
  const n = lines.length;
  const keep = new Uint8Array(n);
  // rep[i] = index of the kept line whose template line i repeats; -2 - index when only its shape does
  const rep = new Int32Array(n).fill(-1);
  const terms = queryTerms(ctx.query);
  const { key, shaped, keys } = foldKeys(lines);
  const first = new Int32Array(keys).fill(-1);
  const errorsSeen = new Int32Array(keys);
  let inTrace = false;
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    if (i < HEAD || i >= n - TAIL) keep[i] = 1;
    if (inTrace && isContinuation(line)) {
      keep[i] = 1;
      continue;
    }
    inTrace = false;
    const k = key[i]!;
    const firstAt = first[k]!;
    if (firstAt < 0) {
      first[k] = i;
      keep[i] = 1;
    } else rep[i] = shaped[i] ? -2 - firstAt : firstAt;
    const sev = severity(line);
    if (sev > 0) {
      const seen = errorsSeen[k]!;
      errorsSeen[k] = seen + 1;
      if (seen < ERRORS_PER_TEMPLATE) keep[i] = 1;
      if (sev === 2 && keep[i]) inTrace = true;
    }
    if (terms.length > 0) {
      const lower = line.toLowerCase();
      if (terms.every((t) => lower.includes(t))) keep[i] = 1;
    }
  }
  return { keep, rep };
}

/** `t1` without the date part it shares with `t0` ("2026-11-02T09:00:15Z" -> "09:00:15Z"). */
function sameDay(t0: string, t1: string): string {
  const m = /^(\d{4}-\d\d-\d\d[T ])/.exec(t1);
  return m && t0.startsWith(m[1]!) ? t1.slice(m[1]!.length) : t1;
}

/** Marker facts for a folded run: which kept line each folded line repeats, and its time span. */
export function foldFacts(lines: readonly string[], rep: Int32Array) {
  return (from: number, to: number): string[] => {
    const like = new Map<string, number>();
    for (let i = from; i <= to; i++) {
      const r = rep[i]!;
      const key = r >= 0 ? `like line ${r + 1}` : r <= -2 ? `shaped like line ${-r - 1}` : "other";
      like.set(key, (like.get(key) ?? 0) + 1);
    }
    // The run is in order: its first and last timestamps are its time span.
    let t0: string | undefined;
    let t1: string | undefined;
    for (let i = from; i <= to && !t0; i++) t0 = timestampOf(lines[i]!);
    for (let i = to; i >= from && !t1; i--) t1 = timestampOf(lines[i]!);
    const facts = [countList(like)];
    if (t0 && t1) facts.push(t0 === t1 ? `at ${t0}` : `${t0}..${sameDay(t0, t1)}`);
    return facts;
  };
}

/** Compresses log text, or says why it cannot. */
export function compressLog(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const { keep, rep } = planLog(lines, ctx);
  if (droppedCount(keep, lines.length) === 0) return "document";
  const output = renderKept(lines, keep, {
    facts: foldFacts(lines, rep),
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output, lossless: false };
}
