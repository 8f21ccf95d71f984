// A logger that cannot be turned into a memory or disk flood by what a client sends. Contract:
// every message is cut to `maxChars` (with a note of how much was cut), and at most `burst`
// messages pass at once, refilled at `perSecond`; the rest are counted, and the next message
// that passes says how many were suppressed. Nothing is buffered here and no timer is kept.
import type { Logger } from "../logger.js";

export interface LogLimitOptions {
  maxChars?: number;
  burst?: number;
  perSecond?: number;
  now?: () => number;
}

export function limitLogger(inner: Logger, options: LogLimitOptions = {}): Logger {
  const maxChars = options.maxChars ?? 2000;
  const burst = options.burst ?? 20;
  const perSecond = options.perSecond ?? 2;
  const now = options.now ?? (() => performance.now());
  let tokens = burst;
  let last = now();
  let suppressed = 0;
  const pass = (write: (m: string) => void, message: string) => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * perSecond);
    last = t;
    if (tokens < 1) {
      suppressed++;
      return;
    }
    tokens -= 1;
    let text =
      message.length > maxChars
        ? `${message.slice(0, maxChars)} [… ${message.length - maxChars} more characters]`
        : message;
    if (suppressed > 0) {
      text = `(${suppressed} similar message(s) suppressed) ${text}`;
      suppressed = 0;
    }
    write(text);
  };
  return {
    info: (m) => pass((x) => inner.info(x), m),
    warn: (m) => pass((x) => inner.warn(x), m),
    error: (m) => pass((x) => inner.error(x), m),
  };
}
