// Repeated diagnostic messages. When one message occurs 4+ times, exactly (its quoted names are
// what tells "Property 'set'" from "Property 'settings'"), its first two lines stay whole; later lines keep only their location and code, which are a
// prefix of the original line, and each run of such shortened lines is followed by a marker
// counting the messages it dropped by template (quoted names masked).
import { countList } from "../../lines.js";
import { formatMarker, lineSpan } from "../../markers.js";

// "<file>(l,c): error TS1234: msg", "<file>:l:c - error TS1234: msg", "<file>:l:c: error: msg"
const SINGLE = /^(\S.*?(?:\(\d+,\d+\)|:\d+:\d+)(?::| -) (?:error|warning|fatal error)(?: [A-Z]+\d+)?): (.+)$/;
const QUOTED = /'[^']*'|"[^"]*"|`[^`]*`/g;
const MIN_REPEATS = 4;
const SHOWN_WHOLE = 2;

/** Shortened lines (index -> prefix) and the facts for each run of them, or undefined. */
export function foldRepeatedMessages(lines: readonly string[]): Map<number, string> | undefined {
  const parsed = lines.map((line) => SINGLE.exec(line));
  const byTemplate = new Map<string, number[]>();
  parsed.forEach((m, i) => {
    if (!m) return;
    const template = `${m[1]!.replace(/^.*?((?:error|warning|fatal error)(?: [A-Z]+\d+)?)$/, "$1")}: ${m[2]!}`;
    const list = byTemplate.get(template);
    if (list) list.push(i);
    else byTemplate.set(template, [i]);
  });
  const short = new Map<number, string>();
  for (const list of byTemplate.values()) {
    if (list.length < MIN_REPEATS) continue;
    for (const i of list.slice(SHOWN_WHOLE)) short.set(i, parsed[i]![1]!);
  }
  return short.size > 0 ? short : undefined;
}

/** The marker after a run [from, to] of shortened lines: what their messages were. */
export function repeatedMarker(lines: readonly string[], from: number, to: number, handle?: string): string {
  const like = new Map<string, number>();
  for (let i = from; i <= to; i++) {
    const template = SINGLE.exec(lines[i]!)![2]!.replace(QUOTED, "'…'");
    like.set(template, (like.get(template) ?? 0) + 1);
  }
  return formatMarker({
    count: to - from + 1,
    unit: "message",
    where: lineSpan(from + 1, to + 1),
    facts: [`of the lines above, quoted names masked: ${countList(like, 2)}`],
    ...(handle ? { handle } : {}),
  });
}
