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

// A body formatMarker writes for a run of lines: `lines a-b elided`, `N of lines a-b elided` (a
// region), or a count with its span, `N hits elided (lines a-b)`.
const SPAN_BODY =
  /^(?:(?:\d+ of )?lines? (\d+)(?:-(\d+))? (?:elided|skipped)|\d+ [a-z][a-z -]*? (?:elided|skipped) \(lines? (\d+)(?:-(\d+))?\))(?:[ ;\]]|$)/;
// A count this engine writes without a span (JSON items and members, markup, terminal states).
const COUNT_BODY = /^\d+ [a-z][a-z -]*? (?:elided|skipped)(?:[ ;\]]|$)/;
// A marker as a whole line in plain form (optionally indented), or as a JSON element or member.
const PLAIN_MARKER = /^[ \t]*\[caveman: ([^\r\n]*)\][ \t]*\r?$/;
const JSON_MARKER = /^[ \t]*"\[caveman: ((?:[^"\\\r\n]|\\.)*)\]"(?::null)?,?[ \t]*\r?$/;

/**
 * True when `text` is (or quotes whole) a view this engine or our tools wrote, so compressing it
 * again would only fold our own markers. A marker-looking line alone decides nothing: a log may
 * hold `[caveman: ...]` lines of its own. It counts as ours when
 * - its first or last line is a note pointing at a stored original (a header or trailer that
 *   says `retrieve`, as the server's, the hooks' and the proxy's do) or one of the engine's
 *   own span-less headers (`N overwritten line states elided`, `N lines of markup elided`), or
 * - a line-span marker tiles where it sits: every line before the first such marker is a kept
 *   line, so its span begins right after them (or, for shortened lines, ends right above it), or
 * - the text is JSON and holds a marker as a JSON element or member (thinned JSON).
 * A marker whose span does not fit where it sits is content, like any other line.
 */
export function hasOwnMarker(text: string): boolean {
  if (!text.includes(MARKER_OPEN)) return false;
  const lines = text.split("\n");
  let last = lines.length - 1;
  if (last > 0 && lines[last] === "") last -= 1;
  const header = (line: string | undefined): boolean => {
    const body = line === undefined ? undefined : PLAIN_MARKER.exec(line)?.[1];
    return body !== undefined && (body.includes("retrieve") || COUNT_BODY.test(body));
  };
  const first = header(lines[0]);
  if (first || header(lines[last])) return true;
  let json = false;
  for (let i = 0; i <= last; i++) {
    const line = lines[i]!;
    if (!line.includes(MARKER_OPEN)) continue;
    const body = PLAIN_MARKER.exec(line)?.[1];
    const span = body === undefined ? null : SPAN_BODY.exec(body);
    if (span) {
      const from = Number(span[1] ?? span[3]);
      const to = Number(span[2] ?? span[4] ?? from);
      if (from === i + 1 || (to === i && body!.includes("of the lines above"))) return true;
    }
    if (!json && COUNT_BODY.test(JSON_MARKER.exec(line)?.[1] ?? "")) json = true;
  }
  return json && parsesAsJson(text);
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
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
  /**
   * `where` is a line span that also holds kept lines, shown after the marker in order: the
   * marker reads `N of lines a-b elided` (N lines of the span elided, the rest follow).
   */
  region?: boolean;
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

const LINE_SPAN = /^lines? (\d+)(?:-(\d+))?$/;

/** Number of lines a "lines a-b" / "line a" span covers, or -1 for any other `where`. */
function spanLength(where: string | undefined): number {
  const m = where ? LINE_SPAN.exec(where) : null;
  return m ? Number(m[2] ?? m[1]) - Number(m[1]) + 1 : -1;
}

/**
 * The marker body text `[caveman: ...]` (without indentation or JSON quoting). When the units
 * are exactly the lines of the span (one unit per line), the count is the span's length and is
 * not written again: `[caveman: lines 12-51 elided; ...]`.
 */
export function formatMarker(spec: MarkerSpec): string {
  const verb = spec.verb ?? "elided";
  let body: string;
  if (spec.region && spec.where) body = `${spec.count} of ${spec.where} ${verb}`;
  else if (spec.where && spanLength(spec.where) === spec.count) body = `${spec.where} ${verb}`;
  else {
    body = `${plural(spec.count, spec.unit)} ${verb}`;
    if (spec.where) body += ` (${spec.where})`;
  }
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

/** How much a marker body stands for: its line span, else its leading count (for ranking). */
function markerSize(body: string): number {
  const span = /^lines? (\d+)(?:-(\d+))?/.exec(body);
  if (span) return Number(span[2] ?? span[1]) - Number(span[1]) + 1;
  const count = /^(\d+) /.exec(body);
  return count ? Number(count[1]) : 0;
}

/**
 * Names `handle` once per output: every marker is written with `; retrieve <handle>`, and all
 * but the one standing for the most units lose it (the handle is about 20 tokens; repeated in
 * every marker it cost more than many markers saved). Ties go to the first such marker. Only
 * marker lines are touched, at their last `; retrieve <handle>]`: kept text that quotes an earlier
 * marker (a JSON value, a log line) stays exactly as written.
 */
export function nameHandleOnce(output: string, handle: string | undefined): string {
  if (!handle) return output;
  const tail = `; retrieve ${handle}]`;
  if (output.indexOf(tail) === output.lastIndexOf(tail)) return output;
  const lines = output.split("\n");
  const marked: number[] = [];
  let best = -1;
  let bestSize = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(tail) || !isMarkerLine(line)) continue;
    marked.push(i);
    const size = markerSize(line.slice(line.indexOf(MARKER_OPEN) + MARKER_OPEN.length));
    if (size > bestSize) {
      best = i;
      bestSize = size;
    }
  }
  if (marked.length <= 1) return output;
  for (const i of marked) {
    if (i === best) continue;
    const line = lines[i]!;
    const at = line.lastIndexOf(tail);
    lines[i] = `${line.slice(0, at)}]${line.slice(at + tail.length)}`;
  }
  return lines.join("\n");
}
