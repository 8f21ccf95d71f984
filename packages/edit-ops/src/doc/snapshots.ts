// Decoded snapshots of the files this editor last loaded or wrote, so a file edited again (the
// usual agent loop: read, edit, edit) is not decoded and hashed from scratch each time. A
// snapshot is used only when the bytes just read from disk are byte-identical to the bytes it was
// made from (one memcmp, far cheaper than UTF-8 validation, line splitting and SHA-256), so it
// can never stand in for content that changed, whoever changed it. Bounded by an estimate of the
// memory a snapshot keeps alive, not by file bytes alone: its lines cost more than its bytes.
// The bytes of a file that turns out to be known are read into a spare buffer that is kept for
// the next read: a 6 MB file edited in a loop then costs no 6 MB allocation per edit, whose
// external-memory pressure otherwise drives V8 into frequent full collections.

import type { FileHandle } from "node:fs/promises";
import type { Doc } from "./lines.js";

interface Snapshot {
  bytes: Buffer;
  hash: string;
  doc: Doc;
  cost: number;
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** Per line: a slot in `lines` and `eols` plus the line's string header (V8, 64-bit). */
const LINE_OVERHEAD = 48;

/**
 * Memory a snapshot keeps alive, estimated: the bytes, the decoded text (about as large again),
 * and per-line overhead. Measured on 1 MiB files of 18-byte lines, the estimate is within 10%
 * of the heap growth; counting bytes alone undercounted it about 4x.
 */
export function snapshotCost(bytes: Uint8Array, doc: Doc): number {
  return 2 * bytes.length + LINE_OVERHEAD * doc.lines.length;
}

export class Snapshots {
  readonly #byPath = new Map<string, Snapshot>();
  #cost = 0;
  /** A read buffer no one else holds; taken while a read uses it. */
  #spare: Buffer | null = null;

  constructor(readonly maxBytes = DEFAULT_MAX_BYTES) {}

  /** The hash and document of `bytes`, when they are exactly the bytes last seen at `real`. */
  get(real: string, bytes: Uint8Array): Omit<Snapshot, "cost"> | undefined {
    const s = this.#byPath.get(real);
    if (!s || s.bytes.length !== bytes.length || Buffer.compare(s.bytes, bytes) !== 0) return undefined;
    // Most recently used last, so eviction takes the oldest.
    this.#byPath.delete(real);
    this.#byPath.set(real, s);
    return s;
  }

  /**
   * Read the whole file (`size` bytes by fstat; a file that grew since is read to its end) and
   * return its bytes, with its hash and document when they are the bytes remembered for `real`.
   */
  async read(
    real: string,
    handle: FileHandle,
    size: number,
  ): Promise<{ bytes: Buffer; known?: { hash: string; doc: Doc } }> {
    const spare = this.#spare && this.#spare.length > size ? this.#spare : null;
    if (spare) this.#spare = null;
    // One byte more than fstat said: filling it means the file grew, so read it the plain way.
    const buf = spare ?? Buffer.allocUnsafeSlow(size + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n === buf.length) {
        if (spare) this.#spare = spare;
        return { bytes: await handle.readFile() };
      }
    }
    const view = buf.subarray(0, n);
    const known = this.get(real, view);
    if (known) {
      this.#spare = buf;
      return { bytes: known.bytes, known };
    }
    // A spare much larger than this file stays spare; the file gets a buffer of its own size.
    if (spare && spare.length > 2 * (n + 1)) {
      this.#spare = spare;
      return { bytes: Buffer.from(view) };
    }
    return { bytes: view };
  }

  /** Remember `bytes` as the content of `real`, with its hash and decoded document. */
  remember(real: string, bytes: Buffer, hash: string, doc: Doc): void {
    this.forget(real);
    const cost = snapshotCost(bytes, doc);
    if (cost > this.maxBytes) return;
    this.#byPath.set(real, { bytes, hash, doc, cost });
    this.#cost += cost;
    for (const [key, s] of this.#byPath) {
      if (this.#cost <= this.maxBytes) break;
      this.#byPath.delete(key);
      this.#cost -= s.cost;
    }
  }

  forget(real: string): void {
    const s = this.#byPath.get(real);
    if (!s) return;
    this.#byPath.delete(real);
    this.#cost -= s.cost;
  }
}

/**
 * True when `decode` of `doc`'s encoding gives `doc` back, so it may stand for those bytes.
 * Lines copied unchanged from a decoded document (`from[j] >= 0`) already are what decode makes,
 * wherever they now sit, except at the two ends: only the first line can be taken for a BOM and
 * only the last one may lack an ending. A new line breaks it by ending in a lone CR before an LF
 * ("a\r" + "\n" reads back as "a" + "\r\n").
 */
export function decodesTo(doc: Doc, from: Int32Array): boolean {
  const n = doc.lines.length;
  if (n === 0) return true;
  if (!doc.bom && doc.lines[0]!.charCodeAt(0) === 0xfeff) return false;
  if (doc.eols[n - 1] === "" && doc.lines[n - 1] === "") return false;
  for (let j = 0; j < n; j++) {
    if (from[j]! >= 0) continue;
    const line = doc.lines[j]!;
    if (doc.eols[j] === "\n" && line.charCodeAt(line.length - 1) === 13) return false;
  }
  return true;
}
