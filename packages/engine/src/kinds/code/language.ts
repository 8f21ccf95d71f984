// Source-language guess for code detection: counts lines that only a given language would
// write. A language is named only when its evidence is clear; otherwise the text is not code.

const RULES: ReadonlyArray<[string, RegExp]> = [
  [
    "typescript",
    /^\s*(export )?(interface|type) \w+.*[={]|^\s*(import|export) .* from ['"]|:\s*(string|number|boolean|void)\b|^\s*(public|private|readonly) \w+|^\s*(readonly\s+)?\w+\??: [\w{[(<'"|][^;]*[^;\s]$/,
  ],
  [
    "javascript",
    /^\s*(const|let|var) \w+ = |^\s*(export )?(async )?function\*? \w*\(|^\s*module\.exports|require\(['"]|=> \{$|^\s*\}\)?;?$/,
  ],
  [
    "python",
    /^\s*(def|class) \w+.*:$|^\s*(from \S+ )?import \w[^;]*$|^\s*(if|elif|for|while|with|try|except).*:$|^\s*return\b(?!.*;\s*$)|self\./,
  ],
  ["rust", /^\s*(pub )?(fn|struct|enum|impl|trait|mod|use) |let mut |->\s*\w|::\w/],
  ["go", /^package \w+$|^\s*func (\(\w+ \*?\w+\) )?\w+\(|:= |^import \($/],
  [
    "java",
    /^\s*(public|private|protected)( static)?( final)? [\w<>[\]]+ \w+\(|^package [\w.]+;$|^import [\w.]+;$/,
  ],
  ["c", /^#include [<"]|^\s*(static )?(int|void|char|unsigned|struct \w+) \*?\w+\(|^#define /],
  ["css", /^\s*[.#]?[\w-]+(\s*[,>+~]\s*[.#]?[\w-]+)*\s*\{$|^\s*[\w-]+:\s*[^;]+;$/],
  ["shell", /^#!\/(usr\/)?bin\/(env )?(ba|z)?sh|^\s*(if \[|fi$|then$|done$|esac$|export \w+=)/],
];

/** An import at the top of a file: Python, JavaScript, Java, Rust, Go, C. */
const IMPORT_HEAD =
  /^(from [\w.]+ import \w|import [\w.{*]|use [\w:]+|package [\w.]+;?$|#include [<"]|const \w+ = require\()/;

/**
 * The language most lines point to, when at least a fifth of the code-ish lines agree, or when
 * the file opens with imports (then the most lines decide which language).
 */
export function detectLanguage(lines: readonly string[]): string | undefined {
  // Comment lines say nothing about the language (and doc comments can dominate a file).
  const rows = lines.filter((l) => l.trim() !== "" && !/^\s*(\*|\/\*|\/\/)/.test(l));
  if (rows.length < 5) return undefined;
  let best: [string, number] | undefined;
  const scores = new Map<string, number>();
  for (const [lang, rule] of RULES) {
    let n = 0;
    for (const row of rows) if (rule.test(row)) n++;
    scores.set(lang, n);
    if (!best || n > best[1]) best = [lang, n];
  }
  if (!best || best[1] < 3) return undefined;
  // Rust's `let x = ...` lines match the JavaScript rule too; Rust marks (`fn`, `::`, `let mut`)
  // with no `function`, `const x =`, `require(` or `import ... from` anywhere mean Rust (match
  // arms write `=>` too).
  if (
    best[0] === "javascript" &&
    ((scores.get("rust") ?? 0) >= rows.length * 0.1 ||
      rows.filter((r) => /^\s*(pub(\([\w:]+\))? )?(async )?(unsafe )?fn \w/.test(r)).length >= 3) &&
    !rows.some((r) => /\bfunction\b|\b(?:const|var) \w+ = |\brequire\(|^\s*import .* from /.test(r))
  )
    best = ["rust", scores.get("rust") ?? 0];
  // A file that opens with imports is code however much of it is docstrings and comments.
  let imports = 0;
  for (const row of rows.slice(0, 40)) if (IMPORT_HEAD.test(row)) imports++;
  if (imports >= 3) return best[0];
  if (best[1] < rows.length * 0.2) return undefined;
  // TypeScript files also match the JavaScript rules; prefer TS when its own marks are present.
  if (best[0] === "javascript" && (scores.get("typescript") ?? 0) >= rows.length * 0.05) return "typescript";
  const structural = rows.filter((r) =>
    /[{}();:=,[\]|>]$|^\s*(def|class|fn|func|import|from|export|const|let|var|type|interface|return|if|for|while|#include)\b/.test(
      r,
    ),
  ).length;
  if (structural < rows.length * 0.3) return undefined;
  return best[0];
}
