// The one marker grammar for every elision and retrieve gap (see README "Marker grammar").
// A marker is `[caveman: <body>]` on a line of its own, optionally indented, optionally written as
// a JSON string element (`"[caveman: ...]"`) or, inside an object, a JSON member with a null
// value (`"[caveman: ...]":null`), each with an optional trailing comma, so thinned JSON stays
// valid JSON. Bodies are one line, state only facts computed from exactly the elided units,
// and cite the caller's handle when one was given; the engine never invents a handle.

/** Text every marker body starts with. */
export const MARKER_OPEN = "[caveman: ";

const MARKER_LINE = /^[ \t]*"?\[caveman: [^\r\n]*\]("(:null)?)?,?[ \t]*\r?$/;

/** True for any line of the marker grammar (plain, indented or JSON-string form). */
export function isMarkerLine(line: string): boolean {
  return line.startsWith(MARKER_OPEN) || (line.includes(MARKER_OPEN) && MARKER_LINE.test(line));
}

/** True when any line of `text` is a marker line (cheap pre-check first). */
export function hasMarkerLine(text: string): boolean {
  if (!text.includes(MARKER_OPEN)) return false;
  for (const line of text.split("\n")) if (isMarkerLine(line)) return true;
  return false;
}

/** What one marker says. */
export interface MarkerSpec {
  /** How many units the marker stands for. */
  count: number;
  /** Singular unit name: "line", "item", "hit", ... */
  unit: string;
  /** Verb: "elided" for compress, "skipped" for retrieve gaps. */
  verb?: string;
  /** Where the units were, e.g. "lines 12-80" or "items 2-39". */
  where?: string;
  /** Facts computed from exactly the elided units. */
  facts?: readonly string[];
  /** The caller's recovery handle. */
  handle?: string;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}

/** Plural form of a unit name for a count. */
export function plural(count: number, unit: string): string {
  if (count === 1) return `${count} ${unit}`;
  if (unit.endsWith("y") && !unit.endsWith("ey")) return `${count} ${unit.slice(0, -1)}ies`;
  if (/(s|sh|ch|x)$/.test(unit)) return `${count} ${unit}es`;
  return `${count} ${unit}s`;
}

/** The marker body text `[caveman: ...]` (without indentation or JSON quoting). */
export function formatMarker(spec: MarkerSpec): string {
  let body = `${plural(spec.count, spec.unit)} ${spec.verb ?? "elided"}`;
  if (spec.where) body += ` (${spec.where})`;
  for (const fact of spec.facts ?? []) if (fact) body += `; ${fact}`;
  if (spec.handle) body += `; retrieve ${spec.handle}`;
  return `${MARKER_OPEN}${oneLine(body).trim()}]`;
}

/** A marker as a JSON string element, e.g. for an elided run inside a JSON array. */
export function formatJsonMarker(spec: MarkerSpec): string {
  return JSON.stringify(formatMarker(spec));
}

/** "lines 4-9" / "line 4" for a 1-based inclusive span. */
export function lineSpan(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}
