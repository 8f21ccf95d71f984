// A strict JSON parser that also records where every value sits in the source text, so that
// thinning can cut whole elements out of the original bytes (kept lines stay original lines).
// Throws EngineError("cave_json_invalid") on anything JSON.parse would reject, and on nesting
// deeper than MAX_DEPTH (callers then fall back to the lossless re-encodings only).
import { EngineError } from "../errors.js";

/** Maximum nesting the span parser follows (recursion guard against hostile input). */
const MAX_DEPTH = 400;

type JsonPrimitive = string | number | boolean | null;

/** A parsed JSON value with its [s, e) offsets in the source. */
export type JNode =
  | { t: "o"; s: number; e: number; keys: string[]; ks: number[]; vals: JNode[] }
  | { t: "a"; s: number; e: number; items: JNode[] }
  | { t: "p"; s: number; e: number; v: JsonPrimitive };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: raw control characters are invalid in JSON strings
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

const LITERALS: ReadonlyArray<[string, JsonPrimitive]> = [
  ["true", true],
  ["false", false],
  ["null", null],
];

/** Parses `text` as one JSON document and returns its span tree. */
export function parseSpans(text: string): JNode {
  let i = 0;
  const fail = (what: string): never => {
    throw new EngineError("cave_json_invalid", `${what} at offset ${i}`);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const str = (): string => {
    const s = i;
    i++;
    STRING_BODY.lastIndex = i;
    if (!STRING_BODY.test(text)) fail("bad string");
    i = STRING_BODY.lastIndex;
    const raw = text.slice(s + 1, i - 1);
    return raw.includes("\\") ? (JSON.parse(text.slice(s, i)) as string) : raw;
  };
  const value = (depth: number): JNode => {
    if (depth > MAX_DEPTH) fail("nesting too deep");
    ws();
    const s = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const keys: string[] = [];
      const ks: number[] = [];
      const vals: JNode[] = [];
      ws();
      if (text[i] === "}") return { t: "o", s, e: ++i, keys, ks, vals };
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected key");
        ks.push(i);
        keys.push(str());
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        vals.push(value(depth + 1));
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return { t: "o", s, e: ++i, keys, ks, vals };
        else fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const items: JNode[] = [];
      ws();
      if (text[i] === "]") return { t: "a", s, e: ++i, items };
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return { t: "a", s, e: ++i, items };
        else fail("expected ',' or ']'");
      }
    }
    if (c === '"') {
      const v = str();
      return { t: "p", s, e: i, v };
    }
    for (const [word, v] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { t: "p", s, e: i, v };
      }
    }
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) fail("unexpected character");
    i = NUMBER.lastIndex;
    return { t: "p", s, e: i, v: Number(text.slice(s, i)) };
  };
  const root = value(0);
  ws();
  if (i !== text.length) fail("trailing content");
  return root;
}
