// Which elements of a long JSON array survive thinning: first and last items, error-like items,
// numeric and length outliers (robust z-score), rare categorical values, change points of
// low-churn fields, and items matching the query. Also decides whether an array is redundant
// enough to thin at all (homogeneous records or short primitives); distinct documents are not.
import { type FieldValue, isRecord, recordFields, robustOutliers } from "./fields.js";

/** Arrays shorter than this are never thinned. */
export const MIN_THIN_ITEMS = 8;

const ERROR_KEY = /^(error|errors|err|exception|failure|failures|fault|stack|stacktrace)$/i;
const STATUS_KEY =
  /(^|\.)(status|state|level|severity|conclusion|result|outcome|code|status_code|statusCode)$/i;
const ERROR_VALUE =
  /^(error|err|fail|failed|failure|fatal|critical|crit|panic|exception|timed_out|timeout|cancelled|[45]\d\d)$/i;

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

/** Lower-case search terms of a query (2+ characters). */
export function queryTerms(query: string | undefined): string[] {
  if (!query) return [];
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.@/-]+/u)
    .filter((t) => t.length >= 2);
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

/** Records as the selection sees them: flattened primitive fields and their source text. */
export interface RecordSet {
  fields: ReadonlyArray<Map<string, FieldValue>>;
  raw: (i: number) => string;
  errorLike: (i: number) => boolean;
  query?: string;
}

// Field names repeat across records: classify each name once.
const keyKinds = new Map<string, 0 | 1 | 2>();
function keyKind(key: string): 0 | 1 | 2 {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    kind = STATUS_KEY.test(key) ? 1 : /(^|\.)(ok|success|passed)$/i.test(key) ? 2 : 0;
    if (keyKinds.size < 10_000) keyKinds.set(key, kind);
  }
  return kind;
}

/** True when a record's fields carry an error-like status value. */
export function hasErrorField(fields: Map<string, FieldValue>): boolean {
  // Keys and values walked apart: destructuring [key, value] entries allocated per field per
  // record, and this runs on every record.
  const values = fields.values();
  for (const key of fields.keys()) {
    const v = values.next().value!.v;
    const kind = keyKind(key);
    if (kind === 1 && v !== null && ERROR_VALUE.test(String(v))) return true;
    if (kind === 2 && v === false) return true;
  }
  return false;
}

/** Indices of records to keep (first two, last, error-like, outliers, rare, change points, query). */
export function selectRecords(set: RecordSet): number[] {
  const fields = set.fields;
  const n = fields.length;
  const keep = new Set<number>([0, 1, n - 1]);
  const terms = queryTerms(set.query);
  const lengths: number[] = [];
  for (let i = 0; i < n; i++) {
    const raw = set.raw(i);
    lengths.push(raw.length);
    if (set.errorLike(i)) keep.add(i);
    if (terms.length > 0) {
      const lower = raw.toLowerCase();
      if (terms.every((t) => lower.includes(t))) keep.add(i);
    }
  }
  for (const i of robustOutliers(lengths, 4, 2)) keep.add(i);
  // One pass groups every field's values with their record index (records in order); parallel
  // arrays rather than [index, value] pairs, which cost an allocation per field per record.
  const perField = new Map<string, { at: number[]; fvs: FieldValue[] }>();
  for (let i = 0; i < n; i++) {
    // forEach rather than for-of entries: no [name, value] pair allocated per field.
    fields[i]!.forEach((fv, name) => {
      const group = perField.get(name);
      if (group) {
        group.at.push(i);
        group.fvs.push(fv);
      } else perField.set(name, { at: [i], fvs: [fv] });
    });
  }
  for (const { at, fvs } of perField.values()) {
    if (fvs.length < n * 0.5) continue;
    if (fvs.every((fv) => typeof fv.v === "number")) {
      const outliers = robustOutliers(fvs.map((fv) => fv.v as number));
      for (const o of outliers) keep.add(at[o]!);
      continue;
    }
    const byValue = new Map<string, number[]>();
    for (let p = 0; p < fvs.length; p++) {
      const raw = fvs[p]!.raw;
      const list = byValue.get(raw);
      if (list) list.push(at[p]!);
      else byValue.set(raw, [at[p]!]);
    }
    // Only categorical fields (a handful of values) have rare values and change points.
    if (byValue.size > Math.max(2, Math.min(12, n / 4))) continue;
    // A value that almost never occurs is the planted record a reader needs.
    const rare = Math.max(1, Math.floor(n * 0.02));
    let rareKept = 0;
    for (const list of byValue.values()) {
      if (list.length > rare || rareKept >= 8) continue;
      keep.add(list[0]!);
      rareKept++;
    }
    let changes = 0;
    const points: number[] = [];
    for (let p = 1; p < fvs.length; p++) {
      if (fvs[p]!.raw !== fvs[p - 1]!.raw) {
        changes++;
        points.push(at[p]!);
      }
    }
    if (changes <= 4) for (const i of points) keep.add(i);
  }
  return [...keep].sort((a, b) => a - b);
}
