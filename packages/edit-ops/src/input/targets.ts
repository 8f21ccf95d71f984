// Resolves a read `target` to a line range. `marker`: the first line containing a text.
// `function`: a named function (or class/method), or the innermost one around a line — brace
// languages by matching braces (strings and comments skipped), indentation languages (Python,
// or any block whose header ends with ":") by indentation. `tag`: the innermost HTML/XML
// element around a line, or the first element with a name. Heuristics, stated as such in the
// README; a target that cannot be found is `not_found`, never a guess at the whole file.

import { EditError } from "../errors.js";
import { type BraceIndex, braceBlockEnd, indexBraces } from "./braces.js";

export type Target =
  | { kind: "marker"; text: string }
  | { kind: "function"; name?: string; line?: number }
  | { kind: "tag"; name?: string; line?: number };

export interface Span {
  start: number;
  end: number;
}

const DECL_WORDS = String.raw`(?:export\s+)?(?:default\s+)?(?:public\s+|private\s+|protected\s+|static\s+|override\s+|abstract\s+|async\s+|pub(?:\([^)]*\))?\s+|unsafe\s+|inline\s+|virtual\s+)*`;
const DECL_KEYWORD = String.raw`(?:function\*?|def|class|fn|func|fun|sub|interface|struct|impl|trait|enum|module|namespace)`;

function declPattern(name: string | undefined): RegExp {
  const id = name
    ? escapeRegExp(name)
    : String.raw`(?!(?:if|for|while|switch|catch|with|return|else|do|try|elif|except|match|new|await|typeof)\b)[A-Za-z_$][\w$]*`;
  return new RegExp(
    [
      String.raw`^\s*${DECL_WORDS}${DECL_KEYWORD}\s+(?:\([^)]*\)\s*)?${id}\b`,
      String.raw`^\s*${DECL_WORDS}(?:const|let|var)\s+${id}\s*(?::[^=]*)?=\s*(?:async\s*)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>)`,
      String.raw`^\s*${DECL_WORDS}${id}\s*(?:<[^>]*>)?\s*\([^;]*\)\s*(?::[^{;=]*)?\{?\s*$`,
      String.raw`^\s*${DECL_WORDS}${id}\s*[:=]\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>)`,
    ].join("|"),
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const MAX_DECL_LENGTH = 1000;

const indentOf = (line: string) => line.length - line.trimStart().length;

/** End line (0-based, inclusive) of the block a declaration at `start` opens, or -1. */
function blockEnd(lines: string[], start: number, braces: () => BraceIndex): number {
  const head = lines[start]!;
  if (/:\s*(#.*)?$/.test(head) && !head.includes("{")) return indentEnd(lines, start);
  return braceBlockEnd(braces(), start);
}

function indentEnd(lines: string[], start: number): number {
  const base = indentOf(lines[start]!);
  let end = start;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === "") continue;
    if (indentOf(l) <= base) break;
    end = i;
  }
  return end > start ? end : -1;
}

/** Pull decorators and attribute lines just above a declaration into its span. */
function withDecorators(lines: string[], start: number): number {
  let s = start;
  while (s > 0 && /^\s*(@|#\[)/.test(lines[s - 1]!)) s--;
  return s;
}

export function findFunction(lines: string[], name: string | undefined, line: number | undefined): Span {
  const pattern = declPattern(name);
  const spans: Span[] = [];
  let index: BraceIndex | undefined;
  const braces = () => {
    index ??= indexBraces(lines);
    return index;
  };
  for (let i = 0; i < lines.length; i++) {
    // The pattern backtracks on long lines (quadratic in the worst case); a declaration header
    // is never this long, and minified code has no functions to find by line anyway.
    if (lines[i]!.length > MAX_DECL_LENGTH || !pattern.test(lines[i]!)) continue;
    const end = blockEnd(lines, i, braces);
    if (end === -1) continue;
    const span = { start: withDecorators(lines, i), end };
    if (line === undefined) return span;
    if (span.start <= line && line <= span.end) spans.push(span);
  }
  if (spans.length > 0) return spans.reduce((a, b) => (b.end - b.start < a.end - a.start ? b : a));
  const what = name ? `function "${name}"` : "function";
  const where = line !== undefined ? ` around line ${line + 1}` : "";
  throw new EditError("not_found", `no ${what} found${where}; read by line range instead`);
}

interface Element {
  name: string;
  start: number;
  end: number;
}

/** Elements with their line spans, from a tolerant scan (comments skipped, void tags ignored). */
function scanElements(lines: string[]): Element[] {
  const VOID = /^(area|base|br|col|embed|hr|img|input|link|meta|source|track|wbr)$/i;
  const stack: Element[] = [];
  // Stack positions per name, so a close tag finds its element without walking the stack (a file
  // of unclosed elements and stray close tags would otherwise be quadratic).
  const openAt = new Map<string, number[]>();
  const done: Element[] = [];
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i]!;
    if (inComment) {
      const close = l.indexOf("-->");
      if (close === -1) continue;
      inComment = false;
      l = l.slice(close + 3);
    }
    l = l.replace(/<!--[\s\S]*?-->/g, "");
    const open = l.indexOf("<!--");
    if (open !== -1) {
      inComment = true;
      l = l.slice(0, open);
    }
    for (const m of l.matchAll(/<(\/?)([A-Za-z][\w:.-]*)[^<>]*?(\/?)>/g)) {
      const tag = m[2]!;
      if (m[3] === "/" || VOID.test(tag)) continue;
      if (m[1] !== "/") {
        const at = openAt.get(tag);
        if (at) at.push(stack.length);
        else openAt.set(tag, [stack.length]);
        stack.push({ name: tag, start: i, end: -1 });
        continue;
      }
      const at = openAt.get(tag)?.at(-1);
      if (at === undefined) continue;
      const el = stack[at]!;
      // Elements above it were left unclosed: drop them, and their stack positions, with it.
      for (let k = stack.length - 1; k >= at; k--) openAt.get(stack[k]!.name)!.pop();
      stack.length = at;
      el.end = i;
      done.push(el);
    }
  }
  return done.sort((a, b) => a.start - b.start || b.end - a.end);
}

export function findTag(lines: string[], name: string | undefined, line: number | undefined): Span {
  const els = scanElements(lines).filter((e) => !name || e.name.toLowerCase() === name.toLowerCase());
  const around = line === undefined ? els : els.filter((e) => e.start <= line && line <= e.end);
  const pick =
    line === undefined
      ? around[0]
      : around.reduce<Element | undefined>(
          (a, b) => (!a || b.end - b.start < a.end - a.start ? b : a),
          undefined,
        );
  if (pick) return { start: pick.start, end: pick.end };
  const what = name ? `<${name}> element` : "element";
  const where = line !== undefined ? ` around line ${line + 1}` : "";
  throw new EditError("not_found", `no closed ${what} found${where}; read by line range instead`);
}

export function findMarker(lines: string[], text: string, from: number): Span {
  if (typeof text !== "string" || text.length === 0) {
    throw new EditError("invalid_argument", "marker target needs a non-empty `text`");
  }
  for (let i = from; i < lines.length; i++) if (lines[i]!.includes(text)) return { start: i, end: i };
  throw new EditError("not_found", `no line contains ${JSON.stringify(text)}; search with a shorter text`);
}

/** Resolve a target to 0-based inclusive lines. `line` in targets is 1-based. */
export function resolveTarget(lines: string[], target: Target): Span {
  switch (target.kind) {
    case "marker":
      return findMarker(lines, target.text, 0);
    case "function":
    case "tag": {
      if (target.name === undefined && target.line === undefined) {
        throw new EditError("invalid_argument", `a ${target.kind} target needs a \`name\` or a \`line\``);
      }
      const line = target.line === undefined ? undefined : target.line - 1;
      if (line !== undefined && (!Number.isInteger(line) || line < 0 || line >= lines.length)) {
        throw new EditError(
          "out_of_range",
          `target line ${target.line} is outside the file (${lines.length} lines)`,
          {
            total_lines: lines.length,
          },
        );
      }
      return target.kind === "function"
        ? findFunction(lines, target.name, line)
        : findTag(lines, target.name, line);
    }
    default:
      throw new EditError("invalid_argument", "target.kind must be one of: function, tag, marker");
  }
}
