// Incremental newline framing over raw bytes. Contract: every byte is examined once (chunks are
// scanned with indexOf and kept as a list of slices, never re-concatenated per chunk), a line
// longer than `maxLineBytes` is dropped slice by slice until its newline and reported once as
// `oversized` with its full length, and the framer is resynchronised at the next newline.
// Because framing is on bytes, a UTF-8 sequence split across chunks is reassembled intact.

const NEWLINE = 0x0a;
/** Bytes kept from each end of an oversized line so the caller can still read its id. */
const SNIFF_BYTES = 512;

/** One framed unit: a complete line (without its newline) or an oversized line that was dropped. */
export type Frame =
  | { kind: "line"; bytes: Buffer }
  | { kind: "oversized"; length: number; head: string; tail: string };

export class LineFramer {
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #length = 0;
  #discarding = false;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** Feed one chunk; returns the frames it completed, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) this.#append(chunk.subarray(start, end));
      if (nl === -1) break;
      frames.push(this.#finish());
      start = nl + 1;
    }
    return frames;
  }

  /** The unterminated last line at end of input, if any (a final line without newline still counts). */
  end(): Frame[] {
    if (this.#length === 0 && !this.#discarding) return [];
    return [this.#finish()];
  }

  #append(slice: Buffer): void {
    this.#length += slice.length;
    if (this.#discarding) {
      this.#tail = lastBytes(Buffer.concat([this.#tail, slice]), SNIFF_BYTES);
      return;
    }
    this.#parts.push(slice);
    if (this.#length > this.#maxLineBytes) {
      // Switch to discarding: keep only both ends for id sniffing and free the rest now.
      const all = Buffer.concat(this.#parts);
      this.#head = Buffer.from(all.subarray(0, SNIFF_BYTES));
      this.#tail = Buffer.from(lastBytes(all, SNIFF_BYTES));
      this.#parts = [];
      this.#discarding = true;
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
      const parts = this.#parts;
      frame = { kind: "line", bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, this.#length) };
    }
    this.#parts = [];
    this.#length = 0;
    this.#discarding = false;
    this.#head = Buffer.alloc(0);
    this.#tail = Buffer.alloc(0);
    return frame;
  }
}

function lastBytes(buf: Buffer, n: number): Buffer {
  return buf.length <= n ? buf : buf.subarray(buf.length - n);
}
