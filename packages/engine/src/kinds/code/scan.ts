import { tick } from "../../work.js";
// A string- and comment-aware bracket scanner for C-family languages (JS/TS, Java, Go, Rust,
// C/C++, C#, CSS). It pairs every {}, [] and () outside strings, comments, template literals and
// (for JS) regex literals, and reports the brace pairs by line. Any mismatch returns undefined:
// the caller then passes the input through instead of guessing.

/** A matched {...} pair by 0-based line of its brackets. */
export interface BracePair {
  open: number;
  close: number;
  depth: number;
}

const REGEX_BEFORE =
  /[(,=:[!&|?{};+\-*%<>~^]$|\b(return|typeof|case|in|of|new|delete|void|throw|yield|await)$/;
// Sticky (`y`) so that matching at an offset never copies the rest of a long (minified) line.
const CHAR_LITERAL = /'(\\.[^']*|[^\\'])'/y;
const REGEX_LITERAL = /\/(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\[\n])+\/[a-z]*/y;
/**
 * Failed regex-literal attempts allowed per line. A failed attempt can scan to the end of the
 * line, so `[/[/[/[...` was quadratic (25 s for 200 KB); past the cap a "/" is division, and a
 * line that really held more regex literals fails to balance and passes through.
 */
const REGEX_ATTEMPTS_PER_LINE = 64;

/** True when a "/" at `i` can open a regex literal, judged by the code just before it (bounded). */
function regexMayStart(line: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (line[j] === " " || line[j] === "\t")) j--;
  if (j < 0) return true;
  return REGEX_BEFORE.test(line.slice(Math.max(0, j - 10), j + 1));
}

/**
 * Brace pairs of `lines`, or undefined when brackets do not balance. With `cut` (a file read
 * with `head -n`, a Read window) brackets still open at the end are allowed, and each open brace
 * pairs with the line past the last (`close: lines.length`); a closer without its opener still fails.
 */
export function scanBraces(
  lines: readonly string[],
  language: string | undefined,
  cut = false,
): BracePair[] | undefined {
  const js = language === "javascript" || language === "typescript";
  const charLiterals = !js && language !== "css";
  const hashComments = language === "shell";
  const pairs: BracePair[] = [];
  const stack: Array<{ ch: string; line: number; template?: boolean }> = [];
  let mode: "code" | "block" | "string" | "template" | "raw" = "code";
  let quote = "";
  // Rust raw strings (`r"..."`, `r#"..."#`, `br##"..."##`) end only at a quote followed by as
  // many `#` as opened them, and may hold quotes, braces and newlines.
  let rawEnd = "";
  const rust = language === "rust";
  // "{" entries on the stack, kept as a count: filtering the stack at every "}" was quadratic in depth.
  let braces = 0;
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln]!;
    tick(line.length + 1);
    let regexAttempts = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (mode === "raw") {
        if (c === '"' && line.startsWith(rawEnd, i)) {
          mode = "code";
          i += rawEnd.length - 1;
        }
        continue;
      }
      if (
        rust &&
        c === "r" &&
        (i === 0 ||
          !/\w/.test(line[i - 1]!) ||
          (line[i - 1] === "b" && (i === 1 || !/\w/.test(line[i - 2]!))))
      ) {
        const open = /^r(#*)"/.exec(line.slice(i, i + 260));
        if (open) {
          mode = "raw";
          rawEnd = `"${open[1]}`;
          i += open[0].length - 1;
          continue;
        }
      }
      if (mode === "block") {
        if (c === "*" && line[i + 1] === "/") {
          mode = "code";
          i++;
        }
        continue;
      }
      if (mode === "string" || mode === "template") {
        if (c === "\\") i++;
        else if (mode === "string" && c === quote) mode = "code";
        else if (mode === "template" && c === "`") mode = "code";
        else if (mode === "template" && c === "$" && line[i + 1] === "{") {
          stack.push({ ch: "{", line: ln, template: true });
          braces++;
          mode = "code";
          i++;
        }
        continue;
      }
      if (c === "/" && line[i + 1] === "/") break;
      if (hashComments && c === "#") break;
      if (c === "/" && line[i + 1] === "*") {
        mode = "block";
        i++;
        continue;
      }
      if (c === '"' || (c === "'" && !charLiterals)) {
        mode = "string";
        quote = c;
        continue;
      }
      if (c === "'" && charLiterals) {
        // a char literal ('x', '\n'); otherwise a Rust lifetime or a quote in prose: skip it
        CHAR_LITERAL.lastIndex = i;
        const m = CHAR_LITERAL.exec(line);
        if (m) i += m[0].length - 1;
        continue;
      }
      if (c === "`" && js) {
        mode = "template";
        continue;
      }
      if (c === "/" && js && regexAttempts < REGEX_ATTEMPTS_PER_LINE && regexMayStart(line, i)) {
        REGEX_LITERAL.lastIndex = i;
        const m = REGEX_LITERAL.exec(line);
        if (m) {
          i += m[0].length - 1;
          continue;
        }
        regexAttempts++;
      }
      if (c === "{" || c === "[" || c === "(") {
        stack.push({ ch: c, line: ln });
        if (c === "{") braces++;
      } else if (c === "}" || c === "]" || c === ")") {
        const top = stack.pop();
        const want = c === "}" ? "{" : c === "]" ? "[" : "(";
        if (!top || top.ch !== want) return undefined;
        if (c === "}") braces--;
        if (top.template) {
          mode = "template";
          continue;
        }
        if (c === "}") pairs.push({ open: top.line, close: ln, depth: braces });
      }
    }
    // A Rust string may span lines (with or without a trailing `\`); elsewhere one open at a
    // line's end means the scan misread the line.
    if (mode === "string" && !rust) return undefined;
  }
  if (stack.length > 0 && cut) {
    for (let k = stack.length - 1; k >= 0; k--)
      if (stack[k]!.ch === "{" && !stack[k]!.template)
        pairs.push({ open: stack[k]!.line, close: lines.length, depth: --braces });
    return pairs;
  }
  if (stack.length > 0 || mode !== "code") return undefined;
  return pairs;
}
