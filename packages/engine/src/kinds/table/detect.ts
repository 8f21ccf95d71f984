// Listings that are tables by structure though no delimiter or aligned header says so:
// `ls -lR` (directory headings, `total N`, mode rows), `pip list` (a dashed rule under the
// header), `npm ls` (a dependency tree drawn in box characters) and `apt-cache show` (stanzas of
// `Field: value`, one per package).

import { tick } from "../../work.js";

export const LS_ROW = /^[-dlcbps][rwxsStT-]{9}[.+@]?\s+\d+\s/;
const DASH_RULE = /^-{3,}( +-{3,})+\s*$/;
const TREE_ROW = /^[│|`├└ ]*[├└`+][─-]+[┬─-]? ?\S/;
const STANZA_FIELD = /^[A-Z][\w-]*: /;

function share(lines: readonly string[], test: (line: string) => boolean): number {
  tick(lines.length);
  let total = 0;
  let hit = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    total++;
    if (test(line)) hit++;
  }
  return total === 0 ? 0 : hit / total;
}

/** `ls -l`/`ls -lR`: mode rows, `total N` and `dir:` headings make up the text. */
function isLongListing(lines: readonly string[]): boolean {
  if (!lines.some((l) => /^total \d+$/.test(l))) return false;
  const rows = share(lines, (l) => LS_ROW.test(l));
  return (
    rows >= 0.5 && share(lines, (l) => LS_ROW.test(l) || /^total \d+$/.test(l) || /^\S.*:$/.test(l)) >= 0.9
  );
}

/** `pip list`: a header, a rule of dash runs under it, rows of as many cells. */
function isRuledColumns(lines: readonly string[]): boolean {
  const rule = lines.findIndex((l) => DASH_RULE.test(l));
  if (rule !== 1 || lines.length < 5) return false;
  const width = lines[1]!.trim().split(/ +/).length;
  return share(lines.slice(2), (l) => l.trim().split(/ +/).length === width) >= 0.9;
}

/** `npm ls`: a root line, then mostly tree rows. */
function isTree(lines: readonly string[]): boolean {
  return lines.length >= 5 && share(lines.slice(1), (l) => TREE_ROW.test(l)) >= 0.8;
}

/** `apt-cache show`, `dpkg -s`: two or more stanzas of fields (continuations start with a space). */
export function isStanzas(lines: readonly string[]): boolean {
  let starts = 0;
  let previousBlank = true;
  for (const l of lines) {
    if (previousBlank && STANZA_FIELD.test(l)) starts++;
    previousBlank = l.trim() === "";
  }
  return starts >= 2 && share(lines, (l) => STANZA_FIELD.test(l) || /^ \S/.test(l)) >= 0.9;
}

/** One of the structural listings above. */
export function isListingTable(lines: readonly string[]): boolean {
  return isLongListing(lines) || isRuledColumns(lines) || isTree(lines) || isStanzas(lines);
}
