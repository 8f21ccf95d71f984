// Deterministic originals shared by parent and child: the i-th original of a stream id. Sizes
// vary from 0 bytes to ~96 KiB (some span many SQLite pages), and every tenth one is the same
// for all ids so that two processes race to put identical bytes.
import { createHash } from "node:crypto";

export function originalFor(id: string, i: number): Uint8Array {
  const owner = i % 10 === 0 ? "shared" : id;
  const seed = createHash("sha256").update(`${owner}:${i}`).digest();
  const size = i % 50 === 3 ? 96 * 1024 : (seed[0]! * 64 + seed[1]!) % 4096;
  const out = new Uint8Array(size);
  for (let k = 0; k < size; k++) out[k] = seed[k % 32]! ^ (k & 0xff);
  return out;
}
