// Thins long redundant arrays of a parsed JSON value and writes the result as compact JSON, with
// one marker string element in place of each elided run. Everything not elided is written exactly
// as JSON.stringify writes it, so every output line is a slice of the compact form or a marker,
// and the result is valid JSON. Runs break the line around their marker; kept neighbours stay on
// their lines. Arrays inside elided elements are not visited.
import { formatJsonMarker, type MarkerSpec } from "../../markers.js";
import { recordFacts } from "../../shared/facts.js";
import { isRecord } from "../../shared/fields.js";
import { countTokens } from "../../tokens.js";
import { isThinnable, selectKept } from "./select.js";

/**
 * True when `marker` costs no more tokens than the elements it would replace; otherwise they stay
 * as written. Exact counts only for short runs: a run many times the marker's length always pays.
 */
function markerCheaper(marker: string, raw: readonly string[], from: number, to: number): boolean {
  // Their length first: joining a long run only to learn that it pays cost a copy of it.
  let length = to - from;
  for (let i = from; i <= to && length <= marker.length * 6; i++) length += raw[i]!.length;
  if (length > marker.length * 6) return true;
  return countTokens(marker) <= countTokens(joined(raw, from, to));
}

/** raw[from..to] as the array writes them, comma-separated. */
function joined(raw: readonly string[], from: number, to: number): string {
  return raw.slice(from, to + 1).join(",");
}

/** Objects with fewer members are never thinned. */
const MIN_THIN_MEMBERS = 16;

/** A keyed collection (`{"<id>": {...}, ...}`) of redundant records, thinned like an array. */
function isThinnableObject(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record);
  return (
    keys.length >= MIN_THIN_MEMBERS && isRecord(record[keys[0]!]) && isThinnable(keys.map((k) => record[k]))
  );
}

/** Containers deeper than this are written as they are (recursion guard). */
const MAX_DEPTH = 400;

export interface ThinOptions {
  query?: string;
  handle?: string;
}

/** Result of thinning: compact JSON text and how many elements were elided in total. */
export interface ThinResult {
  text: string;
  elided: number;
}

// The compact text of each array element. compressJson builds the compact form of a root array
// from these, and the writer reuses them, so a large array is stringified once, not twice.
const itemTextCache = new WeakMap<readonly unknown[], string[]>();

/** JSON.stringify of each element; `[${join(",")}]` is JSON.stringify of a parsed array. */
export function itemTexts(items: readonly unknown[]): string[] {
  let texts = itemTextCache.get(items);
  if (!texts) {
    texts = items.map((item) => JSON.stringify(item));
    itemTextCache.set(items, texts);
  }
  return texts;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Marks every container on a path to a thinnable array; returns whether `value` holds one. */
function mark(value: unknown, depth: number, marked: Set<object>): boolean {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return false;
  let found = false;
  if (Array.isArray(value)) {
    if (isThinnable(value)) found = true;
    for (const item of value) if (mark(item, depth + 1, marked)) found = true;
  } else {
    const record = value as Record<string, unknown>;
    if (isThinnableObject(record)) found = true;
    for (const key of Object.keys(record)) if (mark(record[key], depth + 1, marked)) found = true;
  }
  if (found) marked.add(value);
  return found;
}

class Writer {
  elided = 0;
  constructor(
    private readonly marked: Set<object>,
    private readonly opts: ThinOptions,
  ) {}

  /** A marker element citing the handle; whether it pays was judged without it (nameHandleOnce). */
  private marker(spec: MarkerSpec): string {
    return formatJsonMarker(this.opts.handle ? { ...spec, handle: this.opts.handle } : spec);
  }

  write(value: unknown, path: string): string {
    if (value === null || typeof value !== "object" || !this.marked.has(value)) return JSON.stringify(value);
    if (!Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      const member = (k: string) =>
        `${JSON.stringify(k)}:${this.write(record[k], `${path}/${escapePointer(k)}`)}`;
      if (!isThinnableObject(record)) return `{${Object.keys(record).map(member).join(",")}}`;
      return this.thinMembers(record, path, member);
    }
    if (!isThinnable(value)) return `[${value.map((item, i) => this.write(item, `${path}/${i}`)).join(",")}]`;
    const raw = itemTexts(value);
    const { kept, fields } = selectKept(value, raw, this.opts.query);
    let out = "[";
    let prev = -1;
    for (const k of [...kept, value.length]) {
      if (k - prev > 1) {
        const from = prev + 1;
        const to = k - 1;
        const spec = {
          count: to - from + 1,
          unit: "item",
          where: `${from}-${to} of ${value.length} at ${path === "" ? "/" : path}`,
          facts: recordFacts(fields.slice(from, to + 1)),
        };
        // A run its marker would not pay for stays as written (kept neighbours always follow).
        if (!markerCheaper(formatJsonMarker(spec), raw, from, to)) {
          const elided = joined(raw, from, to);
          out += k < value.length ? `${elided},` : elided;
        } else {
          this.elided += to - from + 1;
          out += `\n${this.marker(spec)}${k < value.length ? ",\n" : "\n"}`;
        }
      }
      if (k < value.length) {
        // An unmarked element is written exactly as JSON.stringify wrote it into raw[k].
        const item = value[k];
        out +=
          item !== null && typeof item === "object" && this.marked.has(item)
            ? this.write(item, `${path}/${k}`)
            : raw[k];
        if (k + 1 < value.length) out += ",";
      }
      prev = k;
    }
    return `${out}]`;
  }

  /** A keyed collection: elided member runs become `"[caveman: ...]":null` members. */
  private thinMembers(record: Record<string, unknown>, path: string, member: (k: string) => string): string {
    const keys = Object.keys(record);
    const values = keys.map((k) => record[k]);
    const raw = keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(record[k])}`);
    const { kept, fields } = selectKept(values, raw, this.opts.query);
    let out = "{";
    let prev = -1;
    for (const k of [...kept, keys.length]) {
      if (k - prev > 1) {
        const from = prev + 1;
        const to = k - 1;
        const spec = {
          count: to - from + 1,
          unit: "member",
          where: `${from}-${to} of ${keys.length} at ${path === "" ? "/" : path}`,
          facts: [
            `keys ${JSON.stringify(keys[from])}..${JSON.stringify(keys[to])}`,
            ...recordFacts(fields.slice(from, to + 1)),
          ],
        };
        if (!markerCheaper(`${formatJsonMarker(spec)}:null`, raw, from, to)) {
          const elided = joined(raw, from, to);
          out += k < keys.length ? `${elided},` : elided;
        } else {
          this.elided += to - from + 1;
          out += `\n${this.marker(spec)}:null${k < keys.length ? ",\n" : "\n"}`;
        }
      }
      if (k < keys.length) {
        out += member(keys[k]!);
        if (k + 1 < keys.length) out += ",";
      }
      prev = k;
    }
    return `${out}}`;
  }
}

/** Thins every redundant long array (and keyed collection) in `value`, writing compact JSON. */
export function thinJson(value: unknown, opts: ThinOptions): ThinResult {
  const marked = new Set<object>();
  if (!mark(value, 0, marked)) return { text: "", elided: 0 };
  const writer = new Writer(marked, opts);
  const text = writer.write(value, "");
  return { text, elided: writer.elided };
}
