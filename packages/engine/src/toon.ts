// TOON encode/decode with sizes, via @toon-format/toon. Never throws: failures come back as
// `{ ok: false, code }`. Decoding is strict by default (array lengths, row counts, indentation).
import { decode, encode } from "@toon-format/toon";
import { messageOf } from "./errors.js";
import { countTokens } from "./tokens.js";
import type { ToonResult } from "./types.js";

/** Encoder options passed through to @toon-format/toon. */
export interface ToonEncodeOptions {
  delimiter?: "," | "\t" | "|";
  indentSize?: number;
}

/** Decoder options; `strict` defaults to true. */
export interface ToonDecodeOptions {
  indentSize?: number;
  strict?: boolean;
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

function sized(input: string, output: string): ToonResult {
  return {
    ok: true,
    output,
    bytesIn: bytes(input),
    bytesOut: bytes(output),
    tokensIn: countTokens(input),
    tokensOut: countTokens(output),
  };
}

/** JSON text -> TOON text. Invalid JSON gives `cave_json_invalid`. */
export function toonEncode(jsonText: string, options: ToonEncodeOptions = {}): ToonResult {
  let value: unknown;
  try {
    value = JSON.parse(jsonText);
  } catch (error) {
    return { ok: false, code: "cave_json_invalid", message: `input is not valid JSON: ${messageOf(error)}` };
  }
  try {
    return sized(jsonText, encode(value, options));
  } catch (error) {
    return { ok: false, code: "cave_toon_invalid", message: `cannot encode as TOON: ${messageOf(error)}` };
  }
}

/** TOON text -> JSON text (strict decode unless `strict: false`). Invalid TOON gives `cave_toon_invalid`. */
export function toonDecode(toonText: string, options: ToonDecodeOptions = {}): ToonResult {
  try {
    const value = decode(toonText, { strict: true, ...options });
    return sized(toonText, JSON.stringify(value));
  } catch (error) {
    return { ok: false, code: "cave_toon_invalid", message: `input is not valid TOON: ${messageOf(error)}` };
  }
}
