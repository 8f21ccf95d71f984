// CSV/TSV and markdown tables: the header plus representative rows (first, last, error-like,
// numeric outliers, rare values, change points, query matches: the same selection as JSON
// records). Elided row runs get markers with facts per column.

import { REGION_GAP, renderKept } from "../../lines.js";
import { recordFacts } from "../../shared/facts.js";
import type { FieldValue } from "../../shared/fields.js";
import { hasErrorField, MIN_THIN_ITEMS, selectRecords } from "../../shared/records.js";
import { alignedColumns, alignedTableStart, cellsOf, headerRow } from "../../structure.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { compressSectionedListing } from "./listing.js";
import { compressStanzas } from "./stanzas.js";

/** Splits one CSV/TSV/markdown row into cells, honouring double quotes. */
export function splitRow(line: string, delim: string): string[] {
  if (delim === "|")
    return line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|")
      .map((c) => c.trim());
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === delim) {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell.replace(/\r$/, ""));
  return cells;
}

function delimiterOf(header: string): string {
  if (header.trimStart().startsWith("|")) return "|";
  return header.split("\t").length > header.split(",").length ? "\t" : ",";
}

function cellValue(raw: string): FieldValue {
  const t = raw.trim();
  if (t !== "" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t)) return { v: Number(t), raw: t };
  return { v: t, raw: t };
}

/** Rows sampled (the first ones) to judge whether a table is a document. */
const DOCUMENT_SAMPLE = 50;

/**
 * True when free text that differs in nearly every row (titles, descriptions: cells with a space)
 * is at least half of what the rows hold: no kept row stands for a dropped one, so the table is a
 * document, as for JSON records (select.ts).
 */
function isDocument(rows: readonly string[], fields: ReadonlyArray<Map<string, FieldValue>>): boolean {
  const n = Math.min(rows.length, DOCUMENT_SAMPLE);
  let total = 0;
  const perColumn = new Map<string, string[]>();
  for (let i = 0; i < n; i++) {
    total += rows[i]!.length;
    for (const [name, fv] of fields[i]!) {
      if (typeof fv.v !== "string" || !fv.v.includes(" ")) continue;
      const list = perColumn.get(name);
      if (list) list.push(fv.v);
      else perColumn.set(name, [fv.v]);
    }
  }
  let text = 0;
  for (const values of perColumn.values()) {
    if (values.length < n * 0.5 || new Set(values).size < values.length * 0.9) continue;
    for (const v of values) text += v.length;
  }
  return text >= total * 0.5;
}

/** How a table's rows split into cells: its header line, body lines and a cell splitter. */
interface Layout {
  headerAt: number;
  body: number[];
  cells: (line: string) => string[];
}

/** Delimited (CSV, TSV, markdown) layout: the first non-blank line is the header. */
function delimitedLayout(lines: readonly string[]): Layout | PassReason {
  const rowsAt: number[] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== "") rowsAt.push(i);
  });
  const headerAt = rowsAt[0];
  if (headerAt === undefined) return "not_smaller";
  const delim = delimiterOf(lines[headerAt]!);
  let body = rowsAt.slice(1);
  if (delim === "|" && body[0] !== undefined && /^\s*\|?\s*:?-{3,}/.test(lines[body[0]]!))
    body = body.slice(1);
  // A quoted cell that runs over a line break makes lines and rows differ: markers would count
  // lines as rows and facts would mix cells, so such a table is left whole.
  if (delim !== "|" && body.some((at) => (lines[at]!.split('"').length - 1) % 2 === 1)) return "parse_error";
  return { headerAt, body, cells: (line) => splitRow(line, delim) };
}

/**
 * Whitespace-aligned layout (`ps aux`, `kubectl get`, `ls -l`, `dpkg -l`): columns are the
 * character ranges every row below the header respects (structure.ts), so cells are cut exactly
 * where the tool padded them. Lines above the header (a legend, `total 42`) and rule lines
 * (`+++-====`) are kept as they are; a header-less table uses its first row only for names.
 */
function alignedLayout(lines: readonly string[], start: number): Layout | PassReason {
  const rule = (l: string) => /^[+=|-]+[-+=| ]*$/.test(l.trim());
  const rows: number[] = [];
  for (let i = start; i < lines.length; i++) if (lines[i]!.trim() !== "" && !rule(lines[i]!)) rows.push(i);
  let cols = alignedColumns(rows.map((at) => lines[at]!));
  if (cols.length < 3) return "not_smaller";
  const headed = headerRow([lines[start]!]) === 0;
  if (headed) {
    // Columns right of the last header name are gaps inside that column's cells (`ps`'s COMMAND
    // with its arguments): one cell to the end of the row, so facts never state a cut-off value.
    const named = cellsOf(lines[start]!, cols);
    let last = named.length - 1;
    while (last > 0 && named[last] === "") last--;
    cols = cols.slice(0, last + 1);
  }
  return {
    headerAt: headed ? start : -1,
    body: headed ? rows.slice(1) : rows,
    cells: (line) => cellsOf(line, cols),
  };
}

/** Compresses a table, or says why it cannot. */
export function compressTable(text: string, ctx: KindContext): Candidate | PassReason {
  const sections = compressSectionedListing(text, ctx);
  if (sections !== undefined) return sections;
  const stanzas = compressStanzas(text, ctx);
  if (stanzas !== undefined) return stanzas;
  const lines = text.split("\n");
  const pipes =
    lines
      .find((l) => l.trim() !== "")
      ?.trimStart()
      .startsWith("|") ?? false;
  const start = pipes ? -1 : alignedTableStart(lines);
  const layout = start >= 0 ? alignedLayout(lines, start) : delimitedLayout(lines);
  if (typeof layout === "string") return layout;
  const { headerAt, body } = layout;
  if (body.length < MIN_THIN_ITEMS) return "not_smaller";
  const names = headerAt >= 0 ? layout.cells(lines[headerAt]!) : [];
  const fields = body.map((at) => {
    const map = new Map<string, FieldValue>();
    layout.cells(lines[at]!).forEach((cell, k) => {
      map.set(names[k] || `column ${k + 1}`, cellValue(cell));
    });
    return map;
  });
  if (
    isDocument(
      body.map((at) => lines[at]!),
      fields,
    )
  )
    return "document";
  const kept = selectRecords({
    fields,
    raw: (i) => lines[body[i]!]!,
    errorLike: (i) => hasErrorField(fields[i]!),
    ...(ctx.query ? { query: ctx.query } : {}),
  });
  const keep = new Uint8Array(lines.length).fill(1);
  for (const at of body) keep[at] = 0;
  for (const i of kept) keep[body[i]!] = 1;
  const rowIndex = new Map(body.map((at, i) => [at, i]));
  const facts = (from: number, to: number): string[] => {
    const records: Array<Map<string, FieldValue>> = [];
    for (let k = from; k <= to; k++) {
      if (keep[k]) continue;
      const i = rowIndex.get(k);
      if (i !== undefined) records.push(fields[i]!);
    }
    return recordFacts(records);
  };
  return {
    output: renderKept(lines, keep, {
      unit: "row",
      facts,
      regionGap: REGION_GAP,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
