// Whether JSON text survives a parse and re-serialisation unchanged in value. JSON.parse
// reads numbers as doubles, so 12345678901234567891 comes back as 12345678901234567000, 1e400 as
// Infinity (written `null`), 1e-400 as 0 and -0 as 0. Re-encoding such text (compact JSON, TOON,
// a thinned array) would silently change those values, and marker facts would state numbers the
// input never held. Duplicate keys are the other silent loss: JSON.parse keeps the last one only.
// The JSON compressors pass such input through instead. Linear, string-aware, no recursion.

/** Significant digits a double always reproduces. */
const SAFE_DIGITS = 15;

function numberIsExact(token: string): boolean {
  const n = Number(token);
  if (!Number.isFinite(n) || Object.is(n, -0)) return false;
  const mantissa = token.replace(/[eE].*$/, "").replace(/[-+.]/g, "");
  const significant = mantissa.replace(/^0+/, "").replace(/0+$/, "");
  if (n === 0) return significant === "";
  return significant.length <= SAFE_DIGITS || String(n) === token;
}

/** Members written in `text` (colons outside strings), or -1 when a number would not survive. */
function scan(text: string): number {
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let j = text.indexOf('"', i + 1);
      while (j > 0) {
        let slashes = 0;
        while (text.charCodeAt(j - 1 - slashes) === 92) slashes++;
        if (slashes % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j < 0) return members;
      i = j;
    } else if (c === 58) members++;
    else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      let exponent = false;
      let nonZero = c >= 49 && c <= 57;
      while (j < text.length) {
        const d = text.charCodeAt(j);
        // digits . e E + -
        if (d >= 48 && d <= 57) nonZero ||= d !== 48;
        else if (d === 101 || d === 69) exponent = true;
        else if (d !== 46 && d !== 43 && d !== 45) break;
        j++;
      }
      // Short plain numbers (15 characters hold at most 15 digits) are exact unless minus zero.
      const plain = !exponent && j - i <= SAFE_DIGITS && (c !== 45 || nonZero);
      if (!plain && !numberIsExact(text.slice(i, j))) return -1;
      i = j - 1;
    }
  }
  return members;
}

/** Object members in a parsed value (iterative: JSON may nest 10,000 deep). */
function memberCount(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) for (const item of v) stack.push(item);
    else
      for (const key of Object.keys(v)) {
        count++;
        stack.push((v as Record<string, unknown>)[key]);
      }
  }
  return count;
}

/**
 * True when JSON `text`, parsed as `value`, can be re-encoded without changing anything: every
 * number outside strings is held exactly by a double, and no object repeats a key.
 */
export function reencodesExactly(text: string, value: unknown): boolean {
  const members = scan(text);
  return members >= 0 && members === memberCount(value);
}

/** True when every number literal outside strings in `text` is held exactly by a double. */
export function numbersSurviveParse(text: string): boolean {
  return scan(text) >= 0;
}
