// Line templates: a log line with its variable parts (timestamps, ids, addresses, numbers)
// masked as "#", so that lines differing only in those parts fold together. Also the level reader
// the log compressor uses for marker facts.

// Any run that contains a digit and otherwise only hex digits or . : _ - is variable: timestamps,
// clock times, numbers, ids, hashes, addresses, versions. It starts only where a hex run starts
// (so a long digit-free hex run such as "abcdef" x5000 is skipped in one step, not retried from
// every letter). Written as a scanner rather than a regex with a lookbehind: this runs on every
// line, and the regex was the log path's largest cost.

/** 1 for 0-9, 2 for a-f and A-F, 3 for . : _ -, 0 otherwise (ASCII only). */
const CHAR_KIND = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CHAR_KIND[c] = 1;
for (let c = 97; c <= 102; c++) CHAR_KIND[c] = 2;
for (let c = 65; c <= 70; c++) CHAR_KIND[c] = 2;
for (const c of ".:_-") CHAR_KIND[c.charCodeAt(0)] = 3;

/** `line` with each variable run replaced by "#". */
function maskVariables(line: string): string {
  let out = "";
  let copied = 0;
  let i = 0;
  const n = line.length;
  while (i < n) {
    let c = line.charCodeAt(i);
    let k = c < 128 ? CHAR_KIND[c]! : 0;
    if (k !== 1 && k !== 2) {
      i++;
      continue;
    }
    // A hex run starting here (the character before is not hex: runs are consumed whole).
    let end = i;
    let digit = false;
    while (k === 1 || k === 2) {
      if (k === 1) digit = true;
      if (++end === n) break;
      c = line.charCodeAt(end);
      k = c < 128 ? CHAR_KIND[c]! : 0;
    }
    if (!digit) {
      i = end;
      continue;
    }
    // The variable run goes on over hex digits and . : _ -
    while (end < n) {
      c = line.charCodeAt(end);
      if (c >= 128 || CHAR_KIND[c] === 0) break;
      end++;
    }
    out += `${line.slice(copied, i)}#`;
    copied = end;
    // The run ended at a character that is neither hex nor . : _ -, so the next one starts fresh.
    i = end;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

// A bracketed name without spaces (a thread, a request id: `[http-nio-8080-exec-4]`) varies like a
// number does; level words in brackets (`[error]`) stay, they tell templates apart.
const BRACKETED =
  /\[(?!(?:error|warn|warning|notice|info|debug|crit|alert|emerg|trace|fatal)\])[^\]\s[]{1,60}\]/gi;

/** The line with variable parts masked, so lines differing only in those parts share a template. */
export function templateOf(line: string): string {
  const masked = maskVariables(line);
  return masked.includes("[") ? masked.replace(BRACKETED, "[#]") : masked;
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
