// Line templates: a log line with its variable parts (timestamps, ids, addresses, numbers)
// masked as "#", so that lines differing only in those parts fold together. Also the severity and
// level readers the log compressor uses for keep decisions and marker facts.

// Any run that contains a digit and otherwise only hex digits or . : _ - is variable: timestamps,
// clock times, numbers, ids, hashes, addresses, versions. One cheap pass (this runs on every line).
// A match may start only where a hex run starts (the lookbehind): without it the engine retried
// from every letter of a long digit-free hex run ("abcdef" x5000), which is quadratic in the line.
const VARIABLE = /(?<![0-9a-f])[0-9a-f]*\d[0-9a-f.:_-]*/gi;

// A bracketed name without spaces (a thread, a request id: `[http-nio-8080-exec-4]`) varies like a
// number does; level words in brackets (`[error]`) stay, they tell templates apart.
const BRACKETED =
  /\[(?!(?:error|warn|warning|notice|info|debug|crit|alert|emerg|trace|fatal)\])[^\]\s[]{1,60}\]/gi;

/** The line with variable parts masked, so lines differing only in those parts share a template. */
export function templateOf(line: string): string {
  return line.replace(VARIABLE, "#").replace(BRACKETED, "[#]");
}

const LEVEL_WORD =
  /(?<![\w/.-])(TRACE|DEBUG|INFO|NOTICE|LOG|WARN|WARNING|ERROR|FATAL|CRITICAL|CRIT|SEVERE|EMERG|ALERT|Note|Warning|Error|notice|warn|error|info|debug)(?![\w/.-])/;
// klog (`I1201 15:00:00.123456`) and logcat (`03-17 16:13:38.811  1702  2395 D Tag:`) write the
// level as one letter in a fixed place.
const KLOG_LEVEL = /^([IWEF])\d{4} \d\d:/;
const LOGCAT_LEVEL = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+ ([VDIWEF]) /;

/** The level a line writes, upper-cased ("" when it writes none); read from its first 120 characters. */
export function levelOf(line: string): string {
  const head = line.length > 120 ? line.slice(0, 120) : line;
  const m = LEVEL_WORD.exec(head) ?? KLOG_LEVEL.exec(head) ?? LOGCAT_LEVEL.exec(head);
  return m ? m[1]!.toUpperCase() : "";
}

const ERROR_WORD =
  /\b(ERROR|ERR|FATAL|CRITICAL|CRIT|PANIC|EMERG|ALERT|SEVERE|Exception|Error|error|fatal|panic|failed|failure|FAILED|Traceback|segfault|denied|refused|unreachable|timed? ?out)\b/;
const WARN_WORD = /\b(WARN|WARNING|warn|warning|Warning|deprecated|DEPRECATED)\b/;
const HTTP_5XX = /" [5]\d\d \d|\bstatus[=:]\s*5\d\d\b| 5\d\d (?:-|\d)/;
const CONTINUATION =
  /^(\s+at\s|\s+File "|\tat |\s*Caused by:|\s+\.\.\. \d+ more|\s{2,}\S|Traceback \(most recent call last\):)/;

/** Severity of a log line: 2 error, 1 warning, 0 otherwise. */
export function severity(line: string): 0 | 1 | 2 {
  if (ERROR_WORD.test(line) || HTTP_5XX.test(line)) return 2;
  if (WARN_WORD.test(line)) return 1;
  return 0;
}

/** True for a line that continues the previous record (stack frame, indented detail). */
export function isContinuation(line: string): boolean {
  return CONTINUATION.test(line);
}
