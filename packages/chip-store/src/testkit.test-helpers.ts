// Helpers only this package's tests need: a scripted random source and chip-sized arguments.
// Temp directories and the fake clock come from @caveman/test-kit. Not part of the public API.
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
