// The write operation's pure part: the new document for a whole-file write. With keep_format
// (the default) an existing file keeps its BOM and, when the file and the content each use one
// line-ending style, the file's style — an agent sends LF, and a CRLF file must stay CRLF.
// The content's final-newline state is the caller's: writing a whole file states it.

import { type Change, lineChange } from "../doc/diff.js";
import { type Doc, type Eol, joinLines, lineEndingStyle, splitLines } from "../doc/lines.js";
import { origin, type RemovedText } from "./plan.js";

export interface WritePlan {
  after: Doc;
  changes: Change[];
  removed: RemovedText[];
  warnings: string[];
}

/** `file`: the path and lines of the file as loaded (`doc` null when it does not exist). */
export function writeOp(
  file: { path: string; doc: Doc | null },
  content: string,
  keepFormat: boolean,
): WritePlan {
  const warnings: string[] = [];
  const hasBom = content.charCodeAt(0) === 0xfeff;
  const split = splitLines(hasBom ? content.slice(1) : content);
  const after: Doc = { bom: hasBom, ...split };
  const before = file.doc;
  if (before && keepFormat) {
    if (before.bom && !after.bom) after.bom = true;
    const was = lineEndingStyle(before);
    const now = lineEndingStyle(after);
    if ((was === "lf" || was === "crlf") && (now === "lf" || now === "crlf") && was !== now) {
      const eol: Eol = was === "crlf" ? "\r\n" : "\n";
      after.eols = after.eols.map((e) => (e === "" ? "" : eol));
      warnings.push(`line endings written as ${was.toUpperCase()} to match the existing file`);
    }
  }
  const old = before ?? { bom: false, lines: [], eols: [] };
  const change = lineChange(old, after);
  const removed: RemovedText[] =
    before && before.lines.length > 0
      ? [
          {
            text: joinLines(before.lines, before.eols, 0, before.lines.length),
            origin: origin(file.path, 1, before.lines.length),
          },
        ]
      : [];
  return { after, changes: change ? [change] : [], removed, warnings };
}
