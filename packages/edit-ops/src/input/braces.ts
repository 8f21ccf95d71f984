// Brace matching for the `function` read target, in one pass over the file. Contract: braces,
// and the semicolons that end a body-less declaration, are found outside strings and comments
// (`"`/`'` strings end at their line, backtick strings and block comments may span lines, `//`
// ends a line), and every `{` is paired with its `}` by a stack. A block's end is then a lookup,
// so finding the function around a line costs O(file) however many declarations the file holds
// (scanning from each declaration instead made a file of unclosed blocks quadratic).

const OPEN = 0;
const CLOSE = 1;
const SEMI = 2;

export interface BraceIndex {
  /** Line of each token, in file order. */
  line: Int32Array;
  kind: Uint8Array;
  /** For an opening brace, the token index of its closing brace, or -1. */
  match: Int32Array;
}

export function indexBraces(lines: readonly string[]): BraceIndex {
  const tokLine: number[] = [];
  const tokKind: number[] = [];
  let quote = "";
  let blockComment = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    for (let j = 0; j < l.length; j++) {
      const c = l.charCodeAt(j);
      if (blockComment) {
        if (c === 42 && l.charCodeAt(j + 1) === 47) {
          blockComment = false;
          j++;
        }
        continue;
      }
      if (quote) {
        if (c === 92) j++;
        else if (l[j] === quote) quote = "";
        continue;
      }
      if (c === 47 && l.charCodeAt(j + 1) === 47) break;
      if (c === 47 && l.charCodeAt(j + 1) === 42) {
        blockComment = true;
        j++;
      } else if (c === 34 || c === 39 || c === 96) quote = l[j]!;
      else if (c === 123 || c === 125 || c === 59) {
        tokLine.push(i);
        tokKind.push(c === 123 ? OPEN : c === 125 ? CLOSE : SEMI);
      }
    }
    if (quote !== "`") quote = "";
  }
  const n = tokLine.length;
  const match = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  for (let k = 0; k < n; k++) {
    if (tokKind[k] === OPEN) stack.push(k);
    else if (tokKind[k] === CLOSE && stack.length > 0) match[stack.pop()!] = k;
  }
  return { line: Int32Array.from(tokLine), kind: Uint8Array.from(tokKind), match };
}

/**
 * End line (0-based, inclusive) of the brace block a declaration on line `start` opens: its first
 * `{` must come within 5 lines and before any `;` (a declaration without a body), or -1.
 */
export function braceBlockEnd(index: BraceIndex, start: number): number {
  let lo = 0;
  let hi = index.line.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.line[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < index.line.length; k++) {
    if (index.line[k]! > start + 5) return -1;
    const kind = index.kind[k];
    if (kind === SEMI) return -1;
    if (kind === OPEN) {
      const close = index.match[k]!;
      return close === -1 ? -1 : index.line[close]!;
    }
  }
  return -1;
}
