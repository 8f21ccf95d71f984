// How severe a line is (error, warning, other) and whether it continues the record above it (a
// stack frame, an indented detail). Logs, grep hits and narrow's units all read lines this way.

const ERROR_WORD =
  /\b(ERROR|ERR|FATAL|CRITICAL|CRIT|PANIC|EMERG|ALERT|SEVERE|Exception|Error|error|fatal|panic|failed|failure|FAILED|Traceback|segfault|denied|refused|unreachable|timed? ?out)\b/;
const WARN_WORD = /\b(WARN|WARNING|warn|warning|Warning|deprecated|DEPRECATED)\b/;
const HTTP_5XX = /" [5]\d\d \d|\bstatus[=:]\s*5\d\d\b| 5\d\d (?:-|\d)/;
/** A client error in an access log (`"GET /x HTTP/1.1" 404 -`, `status=404`): a warning. */
const HTTP_4XX = /" 4\d\d (?:-|\d)|\bstatus[=:]\s*4\d\d\b/;
const CONTINUATION =
  /^(\s+at\s|\s+File "|\tat |\s*Caused by:|\s+\.\.\. \d+ more|\s{2,}\S|Traceback \(most recent call last\):)/;

// Most lines are quiet: one scan for any of the three rules before telling them apart.
const ANY_SEVERE = new RegExp(
  `${ERROR_WORD.source}|${HTTP_5XX.source}|${WARN_WORD.source}|${HTTP_4XX.source}`,
);

/** Severity of a log line: 2 error, 1 warning, 0 otherwise. */
export function severity(line: string): 0 | 1 | 2 {
  if (!ANY_SEVERE.test(line)) return 0;
  if (ERROR_WORD.test(line) || HTTP_5XX.test(line)) return 2;
  if (WARN_WORD.test(line) || HTTP_4XX.test(line)) return 1;
  return 0;
}

/** True for a line that continues the previous record (stack frame, indented detail). */
export function isContinuation(line: string): boolean {
  return CONTINUATION.test(line);
}

/**
 * A run's closing tally, which a reader looks for first: `1256 passing (15s)`, `202 failing`,
 * `added 84 packages in 10s`, `test result: FAILED. 3 passed; 1 failed`,
 * `Ran 12 tests in 0.1s`, `✖ 9 problems (2 errors, 7 warnings)`, `Found 4 errors in 2 files.`
 */
const SUMMARY =
  /^\s*\d+ (?:passing|failing|pending)\b|^\s*(?:added|removed|changed|updated|audited) \d+ packages?\b|^test result: |^Ran \d+ tests? in |^\s*(?:Tests?|Test Files|Test Suites|Snapshots)\s+\d+ (?:passed|failed)|\b\d+ problems? \(\d+ errors?|^Found \d+ errors?\b|^(?:error|warning): could not compile|^\s*={3,} .*\b\d+ (?:passed|failed|errors?)\b/;

/** True for a line that tallies a run (tests passed and failed, packages added, files changed). */
export function isSummary(line: string): boolean {
  return SUMMARY.test(line);
}
