// Edit warnings that are about this edit only. A pair (brackets, double quotes, backticks, and
// in markup files element tags) is reported when the file was balanced before the edit and is
// not after — never for a file that was already unbalanced, and never for prose files, where
// "1)" lists and smart quotes would make every warning noise.

import { extname } from "node:path";

export type Tally = Record<string, number>;

const PROSE = new Set([".md", ".markdown", ".txt", ".rst", ".adoc", ".log", ".csv", ".tsv", ".org", ""]);
const MARKUP = new Set([
  ".html",
  ".htm",
  ".xhtml",
  ".xml",
  ".svg",
  ".vue",
  ".svelte",
  ".xsl",
  ".xsd",
  ".plist",
]);
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "!doctype",
]);
const TAG = /<(\/?)([A-Za-z][\w:.-]*|!doctype)\b[^<>]*?(\/?)>/gi;

export function checksFor(path: string): { pairs: boolean; tags: boolean } {
  const ext = extname(path).toLowerCase();
  return { pairs: !PROSE.has(ext), tags: MARKUP.has(ext) };
}

/** Net openings per pair kind in a piece of text. */
export function tally(text: string, tags: boolean): Tally {
  const t: Tally = { "()": 0, "[]": 0, "{}": 0, '"': 0, "`": 0, tags: 0 };
  for (let i = 0; i < text.length; i++) {
    switch (text.charCodeAt(i)) {
      case 40:
        t["()"]!++;
        break;
      case 41:
        t["()"]!--;
        break;
      case 91:
        t["[]"]!++;
        break;
      case 93:
        t["[]"]!--;
        break;
      case 123:
        t["{}"]!++;
        break;
      case 125:
        t["{}"]!--;
        break;
      case 34:
        t['"']!++;
        break;
      case 96:
        t["`"]!++;
        break;
    }
  }
  if (tags) {
    const plain = text.replace(/<!--[\s\S]*?-->/g, "");
    for (const m of plain.matchAll(TAG)) {
      if (m[3] === "/" || VOID.has(m[2]!.toLowerCase())) continue;
      t.tags! += m[1] === "/" ? -1 : 1;
    }
  }
  return t;
}

const LABEL: Record<string, string> = {
  "()": "parentheses",
  "[]": "square brackets",
  "{}": "braces",
  '"': "double quotes",
  "`": "backticks",
  tags: "element tags",
};

function balanced(kind: string, n: number): boolean {
  return kind === '"' || kind === "`" ? n % 2 === 0 : n === 0;
}

/** Tally a whole file from its bytes; the pair characters are ASCII, so no decoding is needed. */
export function tallyBytes(bytes: Uint8Array, tags: boolean): Tally {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (tags) return tally(buf.toString("utf8"), true);
  // Native indexOf per character beats a byte loop several times over on large files.
  const count = (ch: number) => {
    let n = 0;
    for (let p = buf.indexOf(ch); p !== -1; p = buf.indexOf(ch, p + 1)) n++;
    return n;
  };
  return {
    "()": count(40) - count(41),
    "[]": count(91) - count(93),
    "{}": count(123) - count(125),
    '"': count(34),
    "`": count(96),
    tags: 0,
  };
}

/**
 * Compare the file before and after: `whole` is the tally of the old file, `removed`/`inserted`
 * the pieces this edit took out and put in, so the after-tally costs only the edit's size.
 */
export function balanceWarnings(
  path: string,
  whole: Tally,
  removed: string,
  inserted: string,
): { warnings: string[]; after: Tally } {
  const { tags } = checksFor(path);
  const out = tally(removed, tags);
  const into = tally(inserted, tags);
  const after: Tally = {};
  for (const kind of Object.keys(whole)) after[kind] = whole[kind]! - out[kind]! + into[kind]!;
  return { warnings: compareTallies(path, whole, after), after };
}

/**
 * Warnings for kinds balanced in `before` and not in `after` (whole-file tallies). Markup files
 * need this form: a tag may span lines, so tallying only the edited lines would miss a `<` or
 * `>` the edit cut out of a multi-line tag and let the remembered tally drift from the file.
 */
export function compareTallies(path: string, before: Tally, after: Tally): string[] {
  const { pairs, tags } = checksFor(path);
  const warnings: string[] = [];
  for (const kind of Object.keys(before)) {
    const was = before[kind]!;
    const now = after[kind]!;
    if (kind === "tags" ? !tags : !pairs) continue;
    if (balanced(kind, was) && !balanced(kind, now)) {
      const delta = now - was;
      const what =
        kind === '"' || kind === "`"
          ? "an odd number"
          : `${Math.abs(delta)} more ${delta > 0 ? "opening" : "closing"}`;
      warnings.push(`${LABEL[kind]} were balanced before this edit and are not after (${what})`);
    }
  }
  return warnings;
}

/** A few recent whole-file tallies, keyed by real path and valid only for one content hash. */
export class TallyCache {
  private readonly map = new Map<string, { hash: string; tally: Tally }>();
  get(real: string, hash: string): Tally | undefined {
    const hit = this.map.get(real);
    return hit && hit.hash === hash ? hit.tally : undefined;
  }
  remember(real: string, hash: string, tally: Tally): void {
    this.map.delete(real);
    this.map.set(real, { hash, tally });
    if (this.map.size > 64) this.map.delete(this.map.keys().next().value!);
  }
}
