// Shared helpers for this package's tests: real temp directories, a controllable clock and a
// scripted random source. Not part of the public API (not exported from index.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const dirs: string[] = [];

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "chip-store-"));
  dirs.push(d);
  return d;
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function fakeClock(start = Date.UTC(2026, 10, 30, 12, 0, 0)) {
  let now = start;
  const clock = () => now;
  return Object.assign(clock, {
    advance(ms: number) {
      now += ms;
    },
  });
}

/** Random source that returns the scripted byte sequences first, then counts upward. */
export function scriptedRandom(script: number[][] = []) {
  let n = 1;
  return (size: number): Uint8Array => {
    const next = script.shift();
    if (next) return Uint8Array.from({ length: size }, (_, i) => next[i % next.length] as number);
    const out = new Uint8Array(size);
    let v = n++;
    for (let i = size - 1; i >= 0; i--) {
      out[i] = v & 0xff;
      v = Math.floor(v / 256);
    }
    return out;
  };
}

export const bigArgs = (text: string) => ({ path: "src/a.ts", content: text.padEnd(120, "x") });
