// Incremental newline framing over raw bytes. Contract: every byte is examined once; a complete
// line inside one chunk is handed on as a view of that chunk (no copy); the bytes of a line that
// is still partial are *copied* into blocks that grow with the line (at least 1 KiB, at most
// 64 KiB each), so a line dripped one byte per read costs about its own size in memory — never a
// Buffer per read, and never a whole read buffer kept alive for the few bytes of it that started
// the line. Held bytes stay at most twice the partial line's length (plus one 1 KiB block).
// A line longer than `maxLineBytes` (not counting a final `\r`, which ends the line like the
// newline) is dropped as it arrives, reported once as `oversized` with its full length, and the
// framer resynchronises at the next newline. Because framing is on bytes, a UTF-8 sequence split
// across chunks is reassembled intact.

const NEWLINE = 0x0a;
const CR = 0x0d;
/** Bytes kept from each end of an oversized line so the caller can still read its id. */
const SNIFF_BYTES = 512;
const MIN_BLOCK = 1024;
const MAX_BLOCK = 64 * 1024;

/** One framed unit: a complete line (without its newline) or an oversized line that was dropped. */
export type Frame =
  | { kind: "line"; bytes: Buffer }
  | { kind: "oversized"; length: number; head: string; tail: string };

export class LineFramer {
  readonly #maxLineBytes: number;
  /** Filled blocks of the partial line, then the block being filled. */
  #blocks: Buffer[] = [];
  #current: Buffer | null = null;
  #used = 0;
  #length = 0;
  #discarding = false;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Bytes allocated for the partial line (for tests and diagnostics). */
  get heldBytes(): number {
    let n = this.#current?.length ?? 0;
    for (const b of this.#blocks) n += b.length;
    return n + this.#head.length + this.#tail.length;
  }

  /** Feed one chunk; returns the frames it completed, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        if (start < chunk.length) this.#append(chunk.subarray(start));
        break;
      }
      if (this.#length === 0 && !this.#discarding) {
        // The whole line is in this chunk: a view, no copy.
        frames.push(this.#whole(chunk.subarray(start, nl)));
      } else {
        if (nl > start) this.#append(chunk.subarray(start, nl));
        frames.push(this.#finish());
      }
      start = nl + 1;
    }
    return frames;
  }

  /** The unterminated last line at end of input, if any (a final line without newline still counts). */
  end(): Frame[] {
    if (this.#length === 0 && !this.#discarding) return [];
    return [this.#finish()];
  }

  /** Allowed length: the cap, plus one byte when that byte is the CR of a CRLF ending. */
  #fits(bytes: Buffer): boolean {
    const n = bytes.length;
    return n <= this.#maxLineBytes || (n === this.#maxLineBytes + 1 && bytes[n - 1] === CR);
  }

  #whole(bytes: Buffer): Frame {
    if (this.#fits(bytes)) return { kind: "line", bytes };
    return {
      kind: "oversized",
      length: bytes.length,
      head: bytes.subarray(0, SNIFF_BYTES).toString("utf8"),
      tail: lastBytes(bytes, SNIFF_BYTES).toString("utf8"),
    };
  }

  #append(slice: Buffer): void {
    this.#length += slice.length;
    if (this.#discarding) {
      this.#tail = Buffer.from(lastBytes(Buffer.concat([this.#tail, slice]), SNIFF_BYTES));
      return;
    }
    // One byte past the cap may still be a CR before the newline; past that it is oversized.
    if (this.#length > this.#maxLineBytes + 1) {
      const all = Buffer.concat([
        ...this.#blocks,
        this.#current?.subarray(0, this.#used) ?? Buffer.alloc(0),
        slice,
      ]);
      this.#head = Buffer.from(all.subarray(0, SNIFF_BYTES));
      this.#tail = Buffer.from(lastBytes(all, SNIFF_BYTES));
      this.#drop();
      this.#discarding = true;
      return;
    }
    let from = 0;
    while (from < slice.length) {
      if (!this.#current || this.#used === this.#current.length) {
        if (this.#current) this.#blocks.push(this.#current);
        // Grow with the line: a block as large as what is held so far, so capacity stays ≤ 2x.
        const size = Math.min(MAX_BLOCK, Math.max(MIN_BLOCK, this.#length - slice.length + from));
        this.#current = Buffer.allocUnsafeSlow(size);
        this.#used = 0;
      }
      const n = slice.copy(this.#current, this.#used, from);
      this.#used += n;
      from += n;
    }
  }

  #finish(): Frame {
    let frame: Frame;
    if (this.#discarding) {
      frame = {
        kind: "oversized",
        length: this.#length,
        head: this.#head.toString("utf8"),
        tail: this.#tail.toString("utf8"),
      };
    } else {
      const last = this.#current?.subarray(0, this.#used) ?? Buffer.alloc(0);
      const bytes = this.#blocks.length === 0 ? last : Buffer.concat([...this.#blocks, last], this.#length);
      frame = this.#whole(bytes);
    }
    this.#drop();
    this.#length = 0;
    this.#discarding = false;
    this.#head = Buffer.alloc(0);
    this.#tail = Buffer.alloc(0);
    return frame;
  }

  #drop(): void {
    this.#blocks = [];
    this.#current = null;
    this.#used = 0;
  }
}

function lastBytes(buf: Buffer, n: number): Buffer {
  return buf.length <= n ? buf : buf.subarray(buf.length - n);
}
