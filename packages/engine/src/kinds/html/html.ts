// HTML: the visible text and its structure. Scripts, styles, svg, noscript, template, the head
// (except its title) and comments are dropped with the markup; block elements become lines,
// headings keep a "#" prefix, list items a "- ", table cells are joined with " | ", <pre> keeps
// its whitespace, and entities are decoded. Every word of the output is a word of the input; one
// marker line states what was elided (computed from exactly those elements).
import { formatMarker } from "../../markers.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";

// Openers of comments and hidden elements are matched alone; their ends are found with indexOf
// (remembering misses), and tags cannot run past the next "<": no input makes this quadratic.
const TOKEN =
  /<!--|<(script|style|svg|noscript|template|head)\b[^<>]*>|<\/?([a-zA-Z][\w:-]*)\b[^<>]*>|<![^<>]*>|([^<]+|<)/g;
const BLOCK = new Set(
  "address article aside blockquote body br caption dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section summary table tbody thead tfoot tr ul".split(
    " ",
  ),
);
const WORD_END = /[\p{L}\p{N}_]$/u;
const WORD_START = /^[\p{L}\p{N}_]/u;
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  copy: "©",
  para: "¶",
  middot: "·",
  times: "×",
  laquo: "«",
  raquo: "»",
};

/** Decodes named and numeric character references; unknown ones stay as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === "#") {
      const code =
        body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}

/** Compresses HTML to its visible text, or says why it cannot. */
export function compressHtml(text: string, ctx: KindContext): Candidate | PassReason {
  const dropped = new Map<string, number>();
  const out: string[] = [];
  let line = "";
  let pre = 0;
  let title = "";
  let afterTag = false;
  const flush = () => {
    const t = pre > 0 ? line.trimEnd() : line.replace(/\s+/g, " ").trim();
    if (t !== "" && t !== "|" && t !== "-") out.push(t);
    line = "";
  };
  const lower = text.toLowerCase();
  const missing = new Set<string>();
  /** Offset just past `close` at or after `from`, or -1 (misses are remembered: later ones miss too). */
  const endOf = (close: string, from: number): number => {
    if (missing.has(close)) return -1;
    const at = lower.indexOf(close, from);
    if (at < 0) missing.add(close);
    return at < 0 ? -1 : at + close.length;
  };
  const token = new RegExp(TOKEN.source, "g");
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    const [whole, hidden, tag, chars] = m;
    if (whole === "<!--") {
      dropped.set("comment", (dropped.get("comment") ?? 0) + 1);
      const end = endOf("-->", token.lastIndex);
      token.lastIndex = end < 0 ? text.length : end;
      continue;
    }
    if (hidden) {
      const name = hidden.toLowerCase();
      dropped.set(name, (dropped.get(name) ?? 0) + 1);
      const end = endOf(`</${name}`, token.lastIndex);
      const body = text.slice(token.lastIndex, end < 0 ? text.length : end);
      token.lastIndex = end < 0 ? text.length : Math.max(end, text.indexOf(">", end) + 1);
      if (name === "head") title = /<title[^<>]*>([^<]*)<\/title>/i.exec(body)?.[1] ?? "";
      if (title) {
        line = `# ${decodeEntities(title).trim()}`;
        flush();
        title = "";
      }
      continue;
    }
    if (chars !== undefined) {
      const piece = pre > 0 ? decodeEntities(chars) : decodeEntities(chars).replace(/\s+/g, " ");
      // Text split by an inline tag ("\t</span><span>b") would glue into a word the page never
      // wrote ("tb"): keep such pieces apart.
      if (afterTag && WORD_END.test(line) && WORD_START.test(piece)) line += " ";
      afterTag = false;
      line += piece;
      if (pre > 0 && line.includes("\n")) {
        const parts = line.split("\n");
        line = parts.pop() ?? "";
        for (const p of parts) if (p.trim() !== "") out.push(p.trimEnd());
      }
      continue;
    }
    if (!tag) continue;
    afterTag = true;
    const name = tag.toLowerCase();
    const closing = whole.startsWith("</");
    if (name === "td" || name === "th") {
      if (!closing && line.trim() !== "") line += " | ";
      continue;
    }
    if (!BLOCK.has(name)) continue;
    flush();
    if (name === "pre") pre = Math.max(0, pre + (closing ? -1 : 1));
    if (closing) continue;
    if (/^h[1-6]$/.test(name)) line = `${"#".repeat(Number(name[1]))} `;
    else if (name === "li") line = "- ";
  }
  flush();
  if (out.length === 0) return "not_smaller";
  const counts = [...dropped].map(([name, n]) => `${name} x${n}`).join(", ");
  const marker = formatMarker({
    count: text.split("\n").length,
    unit: "line",
    verb: "of markup elided",
    facts: [counts ? `visible text kept; dropped ${counts}` : "visible text kept"],
    ...(ctx.handle ? { handle: ctx.handle } : {}),
  });
  return { output: `${marker}\n${out.join("\n")}`, lossless: false };
}
