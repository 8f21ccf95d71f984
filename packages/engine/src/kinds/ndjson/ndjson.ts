// NDJSON / JSON lines: each line is a record. Records are thinned with the same selection as
// JSON arrays (first, last, error-like, outliers, rare values, change points, query matches) and
// runs of elided lines become markers with facts from exactly those records.

import { REGION_GAP, renderKept } from "../../lines.js";
import { recordFacts } from "../../shared/facts.js";
import { recordFields } from "../../shared/fields.js";
import { hasErrorField, MIN_THIN_ITEMS, selectRecords } from "../../shared/records.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";

/** Compresses NDJSON, or says why it cannot. */
export function compressNdjson(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const at: number[] = [];
  const nodes: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    try {
      nodes.push(JSON.parse(line));
    } catch {
      return "parse_error";
    }
    at.push(i);
  }
  if (nodes.length < MIN_THIN_ITEMS) return "not_smaller";
  const fields = nodes.map((node) => recordFields(node));
  const kept = selectRecords({
    fields,
    raw: (k) => lines[at[k]!]!,
    errorLike: (k) =>
      hasErrorField(fields[k]!) ||
      /"(error|exception|err)"\s*:\s*(?!null|false|""|\[\])/.test(lines[at[k]!]!),
    ...(ctx.query ? { query: ctx.query } : {}),
  });
  const keep = new Uint8Array(lines.length).fill(1);
  for (const i of at) keep[i] = 0;
  for (const k of kept) keep[at[k]!] = 1;
  const index = new Map(at.map((line, k) => [line, k]));
  const facts = (from: number, to: number): string[] => {
    const records = [];
    for (let i = from; i <= to; i++) {
      if (keep[i]) continue;
      const k = index.get(i);
      if (k !== undefined) records.push(fields[k]!);
    }
    return recordFacts(records);
  };
  if (kept.length === nodes.length) return "document";
  return {
    output: renderKept(lines, keep, {
      unit: "record",
      facts,
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
