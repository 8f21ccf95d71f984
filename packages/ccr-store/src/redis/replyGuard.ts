// Replies held to the protocol's own lengths before anything is allocated for them. ioredis's
// decoder keeps every chunk of a bulk string until the length its header announced has arrived,
// so a server (or anything in between) that announces a 2 GB string and then drips, or sends
// millions of elements, makes the client hold all of it. This scanner reads the same bytes first
// (a few integers of state, nothing buffered) and calls `violated` the moment a header announces
// more than the limits allow, a line runs on without its CRLF, or the bytes are not RESP at all;
// the caller then destroys the socket, so the decoder never holds more than the chunk in hand.
// Limits: one bulk string at most `maxBulkBytes` (the team store's largest original; nothing we
// ask for can be larger), one top-level reply at most `maxReplyBytes`, `maxElements` per array.

export interface ReplyLimits {
  maxBulkBytes: number;
  maxReplyBytes: number;
  maxElements: number;
}

/** A line (status, error, integer, a length header) longer than this is not RESP we asked for. */
const MAX_LINE = 64 * 1024;
const MAX_DEPTH = 16;
const CR = 13;
const LF = 10;

/** Lines that end a value: + - : and RESP3's _ # , ( (never asked for, but well-formed). */
const LINE_TYPES = new Set([0x2b, 0x2d, 0x3a, 0x5f, 0x23, 0x2c, 0x28]);
/** Length-prefixed strings: $ and RESP3's = !. */
const BULK_TYPES = new Set([0x24, 0x3d, 0x21]);
/** Aggregates: * and RESP3's ~ > (n elements), % | (n pairs). */
const ARRAY_TYPES = new Set([0x2a, 0x7e, 0x3e]);
const MAP_TYPES = new Set([0x25, 0x7c]);

/** Feed every chunk read from the socket, in order; returns false once the limits are broken. */
export type ReplyScanner = (chunk: Uint8Array) => boolean;

export function replyScanner(limits: ReplyLimits, violated: (why: string) => void): ReplyScanner {
  // What the next byte is: a type byte, a header/line byte, or payload to skip.
  let type = -1;
  let line = "";
  let lineBytes = 0;
  let skip = 0;
  /** Elements still to come in each open aggregate. */
  const open: number[] = [];
  let replyBytes = 0;
  let broken = false;

  const fail = (why: string): false => {
    broken = true;
    violated(why);
    return false;
  };
  /** One value is complete: count it against its aggregate, close the ones it completes. */
  const done = (): void => {
    while (open.length > 0) {
      open[open.length - 1]! -= 1;
      if (open[open.length - 1]! > 0) return;
      open.pop();
    }
    replyBytes = 0;
  };
  const header = (): string | null => {
    const n = Number(line);
    if (!/^-?\d{1,19}$/.test(line) || !Number.isSafeInteger(n))
      return `a malformed length header "${line.slice(0, 40)}"`;
    if (BULK_TYPES.has(type)) {
      if (n > limits.maxBulkBytes)
        return `a bulk string of ${n} bytes, over the ${limits.maxBulkBytes}-byte cap`;
      if (n < 0) done();
      else skip = n + 2;
      return null;
    }
    const count = MAP_TYPES.has(type) ? n * 2 : n;
    if (count > limits.maxElements)
      return `an aggregate of ${n} elements, over the ${limits.maxElements} cap`;
    if (count <= 0) done();
    else if (open.length >= MAX_DEPTH) return `aggregates nested over ${MAX_DEPTH} deep`;
    else open.push(count);
    return null;
  };

  return (chunk) => {
    if (broken) return false;
    replyBytes += chunk.length;
    if (replyBytes > limits.maxReplyBytes) return fail(`a reply over ${limits.maxReplyBytes} bytes`);
    for (let i = 0; i < chunk.length; ) {
      if (skip > 0) {
        const take = Math.min(skip, chunk.length - i);
        skip -= take;
        i += take;
        // The payload's closing CRLF is part of the skip; the string ends with it.
        if (skip === 0) {
          if (chunk[i - 1] !== LF) return fail("a bulk string without its CRLF");
          type = -1;
          done();
        }
        continue;
      }
      const byte = chunk[i]!;
      i += 1;
      if (type === -1) {
        if (!LINE_TYPES.has(byte) && !BULK_TYPES.has(byte) && !ARRAY_TYPES.has(byte) && !MAP_TYPES.has(byte))
          return fail(`a byte (${byte}) that starts no RESP value`);
        type = byte;
        line = "";
        lineBytes = 0;
        continue;
      }
      if (byte === LF && lineBytes > 0 && line.endsWith("\r")) {
        line = line.slice(0, -1);
        if (LINE_TYPES.has(type)) {
          type = -1;
          done();
        } else {
          const why = header();
          if (why !== null) return fail(why);
          if (skip === 0) type = -1;
        }
        continue;
      }
      lineBytes += 1;
      if (lineBytes > MAX_LINE) return fail(`a line over ${MAX_LINE} bytes`);
      // Header lines are short and ASCII; status and error text is kept only for the CR check.
      if (LINE_TYPES.has(type) && byte !== CR) line = "";
      else line += String.fromCharCode(byte);
    }
    return true;
  };
}
