// Splits an original into the whole units a narrowed retrieve may show: JSON array records,
// log lines with their continuation lines, table rows (the header is context, shown once),
// diff hunks (their file header is context), and blank-line paragraphs for everything else.

import { isContinuation } from "../shared/severity.js";
import type { JNode } from "../shared/spans.js";
import type { ContentKind } from "../types.js";

/** One unit: its text, and 1-based inclusive line span; `context` units are headers. */
export interface Unit {
  text: string;
  first: number;
  last: number;
  /** Index of the context unit (header) this unit needs shown before it, if any. */
  context?: number;
  /** True for header units that are shown only as context. */
  header?: boolean;
}

function lineUnits(lines: readonly string[], joinContinuations: boolean): Unit[] {
  const units: Unit[] = [];
  lines.forEach((line, i) => {
    const prev = units[units.length - 1];
    if (prev && joinContinuations && isContinuation(line)) {
      prev.text += `\n${line}`;
      prev.last = i + 1;
    } else units.push({ text: line, first: i + 1, last: i + 1 });
  });
  return units.filter((u) => u.text.trim() !== "");
}

function paragraphs(lines: readonly string[]): Unit[] {
  const units: Unit[] = [];
  let current: Unit | undefined;
  lines.forEach((line, i) => {
    if (line.trim() === "") {
      current = undefined;
      return;
    }
    if (current) {
      current.text += `\n${line}`;
      current.last = i + 1;
    } else {
      current = { text: line, first: i + 1, last: i + 1 };
      units.push(current);
    }
  });
  return units;
}

function tableUnits(lines: readonly string[]): Unit[] {
  const units = lineUnits(lines, false);
  const header = units[0];
  if (!header) return units;
  header.header = true;
  // A markdown table's separator row belongs to the header.
  const second = units[1];
  if (second && /^\s*\|?\s*:?-{3,}/.test(second.text)) {
    header.text += `\n${second.text}`;
    header.last = second.last;
    units.splice(1, 1);
  }
  for (const u of units.slice(1)) u.context = 0;
  return units;
}

function diffUnits(lines: readonly string[]): Unit[] {
  const units: Unit[] = [];
  let header = -1;
  let current: Unit | undefined;
  lines.forEach((line, i) => {
    const newFile =
      line.startsWith("diff --git ") ||
      (line.startsWith("--- ") && (lines[i + 1] ?? "").startsWith("+++ ") && !current?.header);
    if (newFile || current === undefined) {
      current = { text: line, first: i + 1, last: i + 1, header: true };
      units.push(current);
      header = units.length - 1;
    } else if (line.startsWith("@@")) {
      current = { text: line, first: i + 1, last: i + 1, ...(header >= 0 ? { context: header } : {}) };
      units.push(current);
    } else {
      current.text += `\n${line}`;
      current.last = i + 1;
    }
  });
  return units;
}

/** Line number (1-based) of each offset, via one pass over the text. */
function lineOf(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The array or keyed collection with the most elements (members) anywhere in the tree. */
function largestContainer(root: JNode): JNode | undefined {
  let best: JNode | undefined;
  let size = 0;
  const stack: JNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.t === "p") continue;
    const children = node.t === "a" ? node.items : node.vals;
    // Objects count only as keyed collections (`{"<id>": {...}, ...}`), not as one record's fields.
    const collection =
      node.t === "a" ||
      (children.length >= 16 && children.filter((c) => c.t === "o").length >= children.length * 0.8);
    if (collection && children.length > size) {
      best = node;
      size = children.length;
    }
    // One push per child: spreading a 200,000-element array into push() overflows the stack.
    for (const child of children) stack.push(child);
  }
  return best;
}

/** JSON units: the elements (or `"key": value` members) of the largest container. */
export function jsonUnits(text: string, root: JNode): Unit[] {
  const container = largestContainer(root);
  if (!container || container.t === "p") return [];
  const line = lineOf(text);
  const spans =
    container.t === "a"
      ? container.items.map((it) => [it.s, it.e] as const)
      : container.vals.map((v, k) => [container.ks[k]!, v.e] as const);
  if (spans.length < 2) return [];
  return spans.map(([s, e]) => ({ text: text.slice(s, e), first: line(s), last: line(e - 1) }));
}

/** Units for a non-JSON kind. */
export function textUnits(text: string, kind: ContentKind): Unit[] {
  const lines = text.split("\n");
  switch (kind) {
    case "log":
    case "stacktrace":
    case "test":
    case "diagnostics":
    case "terminal":
      return lineUnits(lines, true);
    case "ndjson":
    case "grep":
    case "text":
      return lineUnits(lines, false);
    case "table":
      return tableUnits(lines);
    case "diff":
      return diffUnits(lines);
    default:
      return paragraphs(lines);
  }
}
