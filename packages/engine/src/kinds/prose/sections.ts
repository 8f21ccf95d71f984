// Section folding for long markdown documents (changelogs, READMEs): the start of the document
// stays whole (the latest releases, the introduction), then every heading stays with the first
// lines of its section, and the rest of each section folds into a marker with its line span.
// Headings are ATX (`## 8.0.5`) or setext (a line underlined with `===` or `---`); lines inside
// fenced code are never headings. Query matches are kept. A short document, or one with few
// headings, is not folded: its word-level rewrite is all it gets.
import { queryTerms } from "../../shared/query.js";

/** Documents with fewer lines or headings are not folded. */
const MIN_LINES = 80;
const MIN_HEADINGS = 4;
/** The start of the document kept whole: this share of its lines, in whole sections. */
const HEAD_SHARE = 0.15;
/** Lines with text each later section shows under its heading. */
const SECTION_LINES = 2;

const ATX = /^#{1,6}\s/;
const SETEXT_RULE = /^(=+|-+)\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** Heading flags per line (an underlined setext heading flags both of its lines). */
function headings(lines: readonly string[]): Uint8Array {
  const flags = new Uint8Array(lines.length);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1] === fence) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    if (ATX.test(line)) flags[i] = 1;
    else if (i > 0 && SETEXT_RULE.test(line) && lines[i - 1]!.trim() !== "" && !flags[i - 1]) {
      flags[i - 1] = 1;
      flags[i] = 1;
    }
  }
  return flags;
}

/** Keep flags folding a long markdown document by section, or undefined when it is not one. */
export function sectionKeep(lines: readonly string[], query?: string): Uint8Array | undefined {
  if (lines.length < MIN_LINES) return undefined;
  const heading = headings(lines);
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) if (heading[i] && !heading[i - 1]) starts.push(i);
  if (starts.length < MIN_HEADINGS) return undefined;
  const keep = new Uint8Array(lines.length);
  // The document's start, whole, up to the first section boundary past HEAD_SHARE of its lines.
  const headEnd = starts.find((s) => s >= lines.length * HEAD_SHARE) ?? lines.length;
  for (let i = 0; i < headEnd; i++) keep[i] = 1;
  let shown = SECTION_LINES;
  for (let i = headEnd; i < lines.length; i++) {
    if (heading[i]) {
      keep[i] = 1;
      shown = 0;
    } else if (lines[i]!.trim() !== "" && shown < SECTION_LINES) {
      keep[i] = 1;
      shown++;
    }
  }
  const terms = queryTerms(query);
  if (terms.length > 0)
    for (let i = 0; i < lines.length; i++) {
      const lower = lines[i]!.toLowerCase();
      if (terms.every((t) => lower.includes(t))) keep[i] = 1;
    }
  return keep.includes(0) ? keep : undefined;
}
