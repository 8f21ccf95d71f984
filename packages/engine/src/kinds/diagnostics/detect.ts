// javac's diagnostics name a line but no column (`A.java:19: error: msg`), then the source line
// and a caret, and end with `92 errors`; the gcc-style column rule misses them.

const JAVAC = /^\S+\.java:\d+: (error|warning): /;

/** At least two javac diagnostic lines (one alone may be a quoted line in a log). */
export function isJavacDiagnostics(lines: readonly string[]): boolean {
  let n = 0;
  for (const line of lines) if (JAVAC.test(line) && ++n >= 2) return true;
  return false;
}

/** rustc/clippy blocks: `warning: msg` then ` --> file:line:col`, twice or more (long frames dilute any ratio). */
export function isRustDiagnostics(lines: readonly string[]): boolean {
  let n = 0;
  for (let i = 0; i + 1 < lines.length; i++)
    if (
      /^(warning|error)(\[\w+\])?: /.test(lines[i]!) &&
      /^\s*--> \S+:\d+:\d+/.test(lines[i + 1]!) &&
      ++n >= 2
    )
      return true;
  return false;
}
