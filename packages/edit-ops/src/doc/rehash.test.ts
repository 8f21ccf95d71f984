import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { rehash, rehashWork } from "./rehash.js";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function file(mb: number, seed: number): Buffer {
  const b = Buffer.alloc(mb * 1024 * 1024);
  for (let i = 0; i < b.length; i++) b[i] = 97 + ((i * 7 + seed) % 26);
  return b;
}

describe("rehash", () => {
  it("always gives the sha256 of the bytes, and hashes only from the last state before the edit", () => {
    const a = file(5, 1);
    const h1 = rehash("/f", null, a, 0, true);
    expect(h1).toBe(sha(a));
    expect(rehashWork.bytes).toBe(a.length);
    const b = Buffer.from(a);
    b[4 * 1024 * 1024 + 10] = 65; // a change in the fifth MiB
    const h2 = rehash("/f", h1, b, 4 * 1024 * 1024 + 10, true);
    expect(h2).toBe(sha(b));
    expect(rehashWork.bytes).toBe(b.length - 4 * 1024 * 1024);
  });

  it("ignores kept states for other bytes, a preview, and a wrong prefix claim", () => {
    const a = file(4, 2);
    const h1 = rehash("/g", null, a, 0, true);
    const b = Buffer.from(a);
    b[100] = 66;
    // The preview's bytes are not remembered: the next edit still starts from a's states.
    expect(rehash("/g", h1, b, 100, false)).toBe(sha(b));
    const c = Buffer.from(a);
    c[3 * 1024 * 1024] = 67;
    expect(rehash("/g", h1, c, 3 * 1024 * 1024, true)).toBe(sha(c));
    expect(rehashWork.bytes).toBe(c.length - 3 * 1024 * 1024);
    // Loaded bytes whose hash is not the kept one: everything is hashed again.
    const d = file(4, 3);
    expect(rehash("/g", sha(d), d, d.length, true)).toBe(sha(d));
    expect(rehashWork.bytes).toBe(d.length);
  });
});
