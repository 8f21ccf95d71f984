// Facts about exactly the elided elements of a JSON array, for their marker: constant fields,
// value counts that sum to the elided count, numeric ranges written as in the source, and id
// coverage ("id 1000..1024, 25 distinct"). Fields that vary too much to summarise are left out
// rather than listed partially; a partial value list always says how many items it leaves out.
import type { FieldValue } from "./fields.js";

// Few facts, few values each: in a marker every token is paid on every later turn, and a reader
// wanting more retrieves the span.
const MAX_FACTS = 3;
const MAX_VALUE_CHARS = 40;
const MAX_LISTED = 2;

/** A value as the marker shows it: simple strings without their JSON quotes (fewer tokens). */
function shown(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const inner = raw.slice(1, -1);
  if (/^[\p{L}_][\p{L}\p{N}_.@/:+-]{0,39}$/u.test(inner) && !/^(true|false|null)$/.test(inner)) return inner;
  return raw;
}

function label(name: string): string {
  return name === "" ? "value" : name;
}

function rangeFact(name: string, values: FieldValue[], total: number): string {
  let lo = values[0]!;
  let hi = values[0]!;
  for (const fv of values) {
    if ((fv.v as number) < (lo.v as number)) lo = fv;
    if ((fv.v as number) > (hi.v as number)) hi = fv;
  }
  const distinct = new Set(values.map((fv) => fv.raw)).size;
  const idLike =
    /(^|[._])id$|Id$|^number$|^index$/i.test(name) && values.every((fv) => Number.isInteger(fv.v));
  const partial = values.length === total ? "" : ` (${values.length} of ${total})`;
  if (lo.raw === hi.raw) return `${label(name)} ${lo.raw}${partial || " (all)"}`;
  if (idLike) return `${label(name)} ${lo.raw}..${hi.raw}, ${distinct} distinct${partial}`;
  return `${label(name)} ${lo.raw}..${hi.raw}${partial}`;
}

function countsFact(name: string, values: FieldValue[], total: number): string | undefined {
  const counts = new Map<string, number>();
  for (const fv of values) counts.set(fv.raw, (counts.get(fv.raw) ?? 0) + 1);
  if ([...counts.keys()].some((raw) => raw.length > MAX_VALUE_CHARS)) return undefined;
  const absent = total - values.length;
  if (counts.size === 1 && absent === 0) {
    const only = [...counts.keys()][0]!;
    // A blank table column (no text in any row) tells nothing for its tokens; a JSON string that
    // is empty in every record is written `""` and still said.
    return only === "" ? undefined : `${label(name)} ${shown(only)} (all)`;
  }
  if (counts.size > 6 && counts.size > values.length / 3) return undefined;
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const listed = sorted.slice(0, MAX_LISTED).map(([raw, c]) => `${shown(raw)} x${c}`);
  const rest = sorted.slice(MAX_LISTED);
  if (rest.length > 0) {
    const restCount = rest.reduce((sum, [, c]) => sum + c, 0);
    // A list leaving most records under "other values" tells little for its tokens.
    if (restCount * 2 > values.length) return undefined;
    listed.push(`${rest.length} other values x${restCount}`);
  }
  if (absent > 0) listed.push(`absent x${absent}`);
  return `${label(name)}: ${listed.join(", ")}`;
}

/** Facts about exactly these records (flattened primitive fields). */
export function recordFacts(records: ReadonlyArray<Map<string, FieldValue>>): string[] {
  const total = records.length;
  const perField = new Map<string, FieldValue[]>();
  for (const fields of records) {
    fields.forEach((fv, name) => {
      const list = perField.get(name);
      if (list) list.push(fv);
      else perField.set(name, [fv]);
    });
  }
  const facts: string[] = [];
  for (const [name, values] of perField) {
    if (facts.length >= MAX_FACTS) break;
    if (values.every((fv) => typeof fv.v === "number")) {
      facts.push(rangeFact(name, values, total));
      continue;
    }
    const fact = countsFact(name, values, total);
    if (fact) facts.push(fact);
  }
  return facts;
}
