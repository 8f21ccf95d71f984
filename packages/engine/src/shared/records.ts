// Which records of a long run survive thinning (JSON array items, NDJSON lines, table rows): the
// first two and the last, error-like records, numeric and length outliers (robust z-score), rare
// categorical values, change points of low-churn fields, and records matching the query.
import { type FieldValue, robustOutliers } from "./fields.js";
import { queryTerms } from "./query.js";

/** Arrays shorter than this are never thinned. */
export const MIN_THIN_ITEMS = 8;

const STATUS_KEY =
  /(^|\.)(status|state|level|severity|conclusion|result|outcome|code|status_code|statusCode)$/i;
const ERROR_VALUE =
  /^(error|err|fail|failed|failure|fatal|critical|crit|panic|exception|timed_out|timeout|cancelled|[45]\d\d)$/i;

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
