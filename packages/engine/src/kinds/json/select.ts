// Which elements of a long JSON array survive thinning: the shared record selection
// (shared/records.ts) plus the first item of each record shape and error-like items. Also decides
// whether an array is redundant enough to thin at all (homogeneous records or short primitives);
// distinct documents are not.
import { type FieldValue, isRecord, recordFields } from "../../shared/fields.js";
import { hasErrorField, MIN_THIN_ITEMS, selectRecords } from "../../shared/records.js";

const ERROR_KEY = /^(error|errors|err|exception|failure|failures|fault|stack|stacktrace)$/i;

/** Key signature of a record, for grouping records of one shape. */
function signature(value: Record<string, unknown>): string {
  return Object.keys(value).join("\u0000");
}

// mark() and the writer both ask about every array; the answer depends only on the array.
const thinnable = new WeakMap<readonly unknown[], boolean>();
// Record signatures judgeThinnable computed, reused by selectKept for the same array.
const signatures = new WeakMap<readonly unknown[], string[]>();

/** True when the array's elements are redundant enough that kept ones can represent the rest. */
export function isThinnable(items: readonly unknown[]): boolean {
  if (items.length < MIN_THIN_ITEMS) return false;
  let known = thinnable.get(items);
  if (known === undefined) {
    known = judgeThinnable(items);
    thinnable.set(items, known);
  }
  return known;
}

function judgeThinnable(items: readonly unknown[]): boolean {
  const first = items[0];
  if (isRecord(first)) {
    if (!items.every(isRecord)) return false;
    const counts = new Map<string, number>();
    const sigs: string[] = [];
    for (const it of items as Array<Record<string, unknown>>) {
      for (const k of Object.keys(it)) counts.set(k, (counts.get(k) ?? 0) + 1);
      sigs.push(signature(it));
    }
    signatures.set(items, sigs);
    const shapes = new Set(sigs);
    if (isDocument(items as Array<Record<string, unknown>>)) return false;
    // Either most records share keys, or a few record shapes repeat (a mixed feed).
    for (const c of counts.values()) if (c >= items.length * 0.8) return true;
    return shapes.size <= Math.max(4, items.length / 8);
  }
  if (Array.isArray(first)) return items.every((it) => Array.isArray(it) && it.length === first.length);
  if (items.some((it) => it !== null && typeof it === "object")) return false;
  // Long distinct strings (a bibliography, sentences) are a document, not redundant data.
  const long = items.filter((it) => typeof it === "string" && it.length > 60);
  return long.length < items.length * 0.2;
}

/** Records sampled (the first ones) to judge whether an array of records is a document. */
const DOCUMENT_SAMPLE = 50;

/**
 * True when free text that differs in every record (titles, abstracts, messages: strings with a
 * space, nearly all distinct) is most of what the records say, like a bibliography. No kept
 * record can stand for a dropped one there, and a marker cannot state its text: the redundancy
 * guard keeps the array whole.
 */
function isDocument(items: ReadonlyArray<Record<string, unknown>>): boolean {
  const sample = items.slice(0, DOCUMENT_SAMPLE);
  const perKey = new Map<string, string[]>();
  let total = 0;
  for (const it of sample) {
    total += JSON.stringify(it).length;
    for (const key of Object.keys(it)) {
      const v = it[key];
      if (typeof v !== "string" || !v.includes(" ")) continue;
      const list = perKey.get(key);
      if (list) list.push(v);
      else perKey.set(key, [v]);
    }
  }
  let text = 0;
  for (const values of perKey.values()) {
    if (values.length < sample.length * 0.5 || new Set(values).size < values.length * 0.9) continue;
    for (const v of values) text += v.length;
  }
  return text >= total * 0.5;
}

// Record keys repeat across records: test each name against ERROR_KEY once.
const errorKeys = new Map<string, boolean>();
function isErrorKey(key: string): boolean {
  let known = errorKeys.get(key);
  if (known === undefined) {
    known = ERROR_KEY.test(key);
    if (errorKeys.size < 10_000) errorKeys.set(key, known);
  }
  return known;
}

function isErrorLike(fields: Map<string, FieldValue>, value: unknown): boolean {
  if (isRecord(value)) {
    for (const key of Object.keys(value)) {
      if (!isErrorKey(key)) continue;
      const val = value[key];
      if (val === null || val === false || val === "" || val === 0 || val === undefined) continue;
      if (Array.isArray(val) && val.length === 0) continue;
      return true;
    }
  }
  return hasErrorField(fields);
}

/** Indices of a JSON array's elements to keep (ascending), and the fields it computed. */
export function selectKept(
  items: readonly unknown[],
  raw: readonly string[],
  query?: string,
): { kept: number[]; fields: Array<Map<string, FieldValue>> } {
  const fields = items.map((it) => recordFields(it));
  const kept = selectRecords({
    fields,
    raw: (i) => raw[i]!,
    errorLike: (i) => isErrorLike(fields[i]!, items[i]),
    ...(query ? { query } : {}),
  });
  // Every record shape keeps its first record, so each elided record has a kept one like it.
  if (isRecord(items[0])) {
    const seen = new Set<string>();
    const extra: number[] = [];
    const sigs = signatures.get(items);
    items.forEach((it, i) => {
      const sig = sigs?.[i] ?? signature(it as Record<string, unknown>);
      if (!seen.has(sig)) {
        seen.add(sig);
        extra.push(i);
      }
    });
    if (extra.length <= 16) return { kept: [...new Set([...kept, ...extra])].sort((a, b) => a - b), fields };
  }
  return { kept, fields };
}
